import { ProtocolError } from '@modelcontextprotocol/client';
import { describe, expect, test } from 'vitest';
import { asksForTasks, requiresTask } from './task-calls.js';

describe('which tools are called as tasks', () => {
  test('a 2025-11-25 listing says so with execution.taskSupport "required", and only that', () => {
    expect(requiresTask({ name: 'a', execution: { taskSupport: 'required' } })).toBe(true);
    expect(requiresTask({ name: 'a', execution: { taskSupport: 'optional' } })).toBe(false);
    expect(requiresTask({ name: 'a' })).toBe(false);
    expect(requiresTask(null)).toBe(false);
  });

  test('a 2026-07-28 refusal says so with -32021 naming the tasks extension, and only that', () => {
    const naming = (extensions: object) =>
      new ProtocolError(-32021, 'Missing required client capability', { requiredCapabilities: { extensions } });
    expect(asksForTasks(naming({ 'io.modelcontextprotocol/tasks': {} }))).toBe(true);
    expect(asksForTasks(naming({ 'io.modelcontextprotocol/ui': {} }))).toBe(false);
    expect(
      asksForTasks(
        new ProtocolError(-32021, 'Missing required client capability', { requiredCapabilities: { elicitation: {} } }),
      ),
    ).toBe(false);
    expect(
      asksForTasks(
        new ProtocolError(-32602, 'bad', {
          requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } },
        }),
      ),
    ).toBe(false);
    expect(asksForTasks(new Error('-32021'))).toBe(false);
  });
});
