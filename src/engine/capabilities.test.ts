import { describe, expect, test } from 'vitest';
import { capabilitiesOf } from './capabilities.js';

describe('capabilitiesOf', () => {
  test('a server without tasks advertises neither the capability nor the extension', () => {
    const caps = capabilitiesOf({});
    expect(caps.tasks).toBeUndefined();
    expect(caps.extensions).toBeUndefined();
  });

  test('tasks add the 2025-11-25 capability and the 2026-07-28 extension, merged with extensions the user adds', () => {
    const caps = capabilitiesOf({
      tasks: {},
      capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } },
    });
    expect(caps.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    expect(caps.extensions).toEqual({
      'io.modelcontextprotocol/tasks': {},
      'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] },
    });
  });
});
