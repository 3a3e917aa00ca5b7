import { describe, expect, test } from 'vitest';
import { makeCallContext } from '../../../test/support/call-context.js';
import { isProtocolError } from '../../errors.js';
import { ToolRegistry } from '../../registry/registry.js';
import { defineTool } from '../../tool/define.js';
import { availability } from './availability.js';

const tool = defineTool({
  name: 'wipe',
  description: 'Wipe a disk.',
  effect: 'destructive',
  world: 'closed',
  handler: () => 'wiped',
});
const ok = async () => ({ content: [{ type: 'text' as const, text: 'ran' }] });

describe('availability', () => {
  test('an enabled tool runs', async () => {
    const registry = new ToolRegistry({ env: {}, tools: [tool] });
    const mw = availability({ isCallable: (name) => registry.callable(name) !== undefined });
    expect(await mw(makeCallContext(tool), ok)).toEqual({ content: [{ type: 'text', text: 'ran' }] });
  });

  test('a tool disabled through the registry is refused with -32602 saying it is disabled', async () => {
    const registry = new ToolRegistry({ env: {}, tools: [tool] });
    registry.disable({ names: ['wipe'] });
    const mw = availability({ isCallable: (name) => registry.callable(name) !== undefined });
    const error = await mw(makeCallContext(tool), ok).catch((e: unknown) => e);
    expect(isProtocolError(error)).toBe(true);
    expect((error as { rpcCode: number }).rpcCode).toBe(-32602);
    expect((error as Error).message).toMatch(/"wipe" is disabled/);
  });

  test('a tool disabled by TOOL_<NAME>_DISABLED is refused the same way', async () => {
    const registry = new ToolRegistry({ env: { TOOL_WIPE_DISABLED: 'true' }, tools: [tool] });
    const mw = availability({ isCallable: (name) => registry.callable(name) !== undefined });
    await expect(mw(makeCallContext(tool), ok)).rejects.toThrow(/disabled/);
  });
});
