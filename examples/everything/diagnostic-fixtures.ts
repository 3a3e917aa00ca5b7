/**
 * Diagnostic tools the official conformance suite's 2026-07-28
 * `server-stateless` scenario (SEP-2575, `@modelcontextprotocol/conformance`
 * 0.2.x) calls to exercise rules it cannot reach otherwise: a tool that needs
 * a capability the request did not declare, a tool that asks the user while its
 * response streams, a tool that logs, and hooks that change the tool and
 * prompt lists so `subscriptions/listen` has something to deliver.
 */
import { type CandorServer, definePrompt, defineTool } from '../../src/index.js';

/** A prompt the prompt-list hook adds and removes in turn. */
const toggledPrompt = definePrompt({
  name: 'test_toggled_prompt',
  description: 'Present every other time test_trigger_prompt_change runs.',
  get: () => 'A prompt that comes and goes.',
});

/** A tool the tool-list hook enables and disables in turn. */
const toggledTool = defineTool({
  name: 'test_toggled_tool',
  description: 'Listed every other time test_trigger_tool_change runs.',
  effect: 'read',
  world: 'closed',
  handler: () => 'Still here.',
});

/** The diagnostic tools; `server` is the server they belong to (for the list hooks). */
export function diagnosticTools(server: () => CandorServer) {
  return [
    toggledTool,
    defineTool({
      name: 'test_missing_capability',
      description: "Needs the client's model (sampling); refused with -32021 when the request did not declare it.",
      effect: 'read',
      world: 'closed',
      handler: async (_args, ctx) => {
        const answer = await ctx.sample({
          messages: [{ role: 'user', content: { type: 'text', text: 'Say yes.' } }],
          maxTokens: 5,
        });
        return `The model said: ${JSON.stringify(answer.content)}`;
      },
    }),
    defineTool({
      name: 'test_streaming_elicitation',
      description:
        'Report progress, then ask the user: the question comes back as input_required, never as a request on the stream.',
      effect: 'read',
      world: 'closed',
      handler: async (_args, ctx) => {
        await ctx.progress(1, 2, 'Getting ready to ask');
        const answer = await ctx.elicit({
          message: 'Carry on?',
          requestedSchema: { type: 'object', properties: { go: { type: 'boolean' } }, required: ['go'] },
        });
        return `Answered ${answer.action}.`;
      },
    }),
    defineTool({
      name: 'test_logging_tool',
      description:
        'Three messages for the caller at info, warning and error; a 2026-07-28 request hears them only when it set a log level.',
      effect: 'read',
      world: 'closed',
      handler: async (_args, ctx) => {
        await ctx.log('info', 'Starting.');
        await ctx.log('warning', 'Halfway.');
        await ctx.log('error', 'Pretend trouble, for the test.');
        return 'Logged three messages.';
      },
    }),
    defineTool({
      name: 'test_trigger_tool_change',
      description: 'Enable or disable test_toggled_tool, so clients get notifications/tools/list_changed.',
      effect: 'additive',
      world: 'closed',
      idempotent: false,
      handler: () => {
        const registry = server().registry;
        const listed = registry.isEnabled(toggledTool.name);
        if (listed) registry.disable({ names: [toggledTool.name] });
        else registry.enable({ names: [toggledTool.name] });
        return `test_toggled_tool is now ${listed ? 'disabled' : 'enabled'}.`;
      },
    }),
    defineTool({
      name: 'test_trigger_prompt_change',
      description: 'Add or remove test_toggled_prompt, so clients get notifications/prompts/list_changed.',
      effect: 'additive',
      world: 'closed',
      idempotent: false,
      handler: () => {
        const prompts = server().prompts!;
        const listed = prompts.get(toggledPrompt.name) !== undefined;
        if (listed) prompts.remove(toggledPrompt.name);
        else prompts.add(toggledPrompt);
        return `test_toggled_prompt is now ${listed ? 'removed' : 'added'}.`;
      },
    }),
  ];
}
