import { describe, expect, test } from 'vitest';
import { nameFor } from './gateway.js';

const stdio = (command: string, ...args: string[]) => ({
  kind: 'stdio',
  label: [command, ...args].join(' '),
  command,
  args,
});

describe('nameFor (server names of command-line targets)', () => {
  test.each([
    [stdio('npx', '-y', '@modelcontextprotocol/server-memory'), 'memory'],
    [stdio('node', '/x/node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'stdio'), 'everything'],
    [stdio('python3', 'server.py', '8'), 'server'],
    [stdio('uvx', 'mcp-server-fetch'), 'fetch'],
    [stdio('node', 'tools/notes.mjs'), 'notes'],
    [stdio('my-server'), 'my-server'],
    [{ kind: 'http', label: 'x', url: 'http://127.0.0.1:3000/mcp' }, '127.0.0.1-3000'],
    [{ kind: 'stdio', label: 'x', source: { name: 'github' }, command: 'docker', args: ['run'] }, 'github'],
  ])('%j → %s', (target, name) => {
    expect(nameFor(target, {})).toBe(name);
  });

  test('a name already taken gets a number', () => {
    expect(nameFor(stdio('uvx', 'mcp-server-fetch'), { fetch: {} })).toBe('fetch-2');
  });
});
