import { describe, expect, test } from 'vitest';
import { makeCallContext } from '../../../test/support/call-context.js';
import { ToolError } from '../../errors.js';
import { defineTool } from '../../tool/define.js';
import { confirmDestructive } from './confirm-destructive.js';

const destroy = defineTool({
  name: 'delete_file',
  description: 'Delete a file.',
  effect: 'destructive',
  world: 'closed',
  handler: () => 'x',
});
const read = defineTool({
  name: 'read_file',
  description: 'Read a file.',
  effect: 'read',
  world: 'closed',
  handler: () => 'x',
});
const ran = async () => ({ content: [{ type: 'text' as const, text: 'ran' }] });

describe('confirmDestructive', () => {
  test('a destructive call runs only after the user confirms', async () => {
    const questions: string[] = [];
    const ctx = makeCallContext(
      destroy,
      {},
      {
        confirm: async (q) => {
          questions.push(q);
          return true;
        },
      },
    );
    expect(await confirmDestructive()(ctx, ran)).toEqual({ content: [{ type: 'text', text: 'ran' }] });
    expect(questions[0]).toContain('Delete File');
  });

  test('a decline is an isError result saying the user declined', async () => {
    let reached = false;
    const ctx = makeCallContext(destroy, {}, { confirm: async () => false });
    const result = await confirmDestructive()(ctx, async () => {
      reached = true;
      return { content: [] };
    });
    expect(reached).toBe(false);
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toContain('user declined');
  });

  test('read-only tools are not asked about', async () => {
    const ctx = makeCallContext(
      read,
      {},
      {
        confirm: async () => {
          throw new Error('asked');
        },
      },
    );
    expect((await confirmDestructive()(ctx, ran)).isError).toBeUndefined();
  });

  test('a client that cannot elicit gets a refusal by default, or the call with whenUnsupported allow', async () => {
    const cannot = async () => {
      throw new ToolError('no elicitation', { code: 'elicitation_unsupported' });
    };
    const refused = await confirmDestructive()(makeCallContext(destroy, {}, { confirm: cannot }), ran);
    expect(refused.isError).toBe(true);
    expect((refused.content[0] as { text: string }).text).toContain('did not declare the elicitation capability');
    const allowed = await confirmDestructive({ whenUnsupported: 'allow' })(
      makeCallContext(destroy, {}, { confirm: cannot }),
      ran,
    );
    expect(allowed.isError).toBeUndefined();
  });
});
