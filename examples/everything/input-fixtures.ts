/**
 * The tools and prompt the official conformance suite's 2026-07-28
 * `input-required-result-*` scenarios (SEP-2322, multi round-trip requests,
 * `@modelcontextprotocol/conformance` 0.2.x) call. Each is a plain candor
 * handler: it asks with `ctx.elicit` / `ctx.sample` / `ctx.listRoots`, naming
 * its questions with `{ key }` so they travel under the keys the suite expects;
 * the engine turns a question into `input_required`, seals `requestState` and
 * runs the handler again with the answers on the retry. Nothing here builds an
 * `input_required` result by hand.
 */
import { definePrompt, defineTool } from '../../src/index.js';

const NAME_SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
} as const;

/** The text of a sampling answer's content (a block, or the first of a list). */
function sampledText(answer: { content: unknown }): string {
  const block = Array.isArray(answer.content) ? answer.content[0] : answer.content;
  const text = (block as { text?: unknown } | undefined)?.text;
  return typeof text === 'string' ? text : '';
}

export const inputTools = [
  defineTool({
    name: 'test_input_required_result_elicitation',
    description: "Ask the user's name (one elicitation), then greet them.",
    effect: 'read',
    world: 'closed',
    handler: async (_args, ctx) => {
      const answer = await ctx.elicit(
        { message: 'What is your name?', requestedSchema: NAME_SCHEMA },
        { key: 'user_name' },
      );
      return `Hello, ${String(answer.content?.name ?? 'stranger')}!`;
    },
  }),
  defineTool({
    name: 'test_input_required_result_sampling',
    description: "Ask the client's model a question (one sampling request), then return its answer.",
    effect: 'read',
    world: 'closed',
    handler: async (_args, ctx) => {
      const answer = await ctx.sample(
        {
          messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
          maxTokens: 100,
        },
        { key: 'capital_question' },
      );
      return `The model answered: ${sampledText(answer)}`;
    },
  }),
  defineTool({
    name: 'test_input_required_result_list_roots',
    description: 'Ask the client for its roots, then list them.',
    effect: 'read',
    world: 'closed',
    handler: async (_args, ctx) => {
      const roots = await ctx.listRoots({ key: 'client_roots' });
      return `The client has ${roots.length} root(s): ${roots.map((root) => root.uri).join(', ')}`;
    },
  }),
  defineTool({
    name: 'test_input_required_result_request_state',
    description: 'Ask for a confirmation; the answer is accepted only with the sealed requestState it was asked under.',
    effect: 'read',
    world: 'closed',
    handler: async (_args, ctx) => {
      const answer = await ctx.elicit(
        {
          message: 'Please confirm',
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
        },
        { key: 'confirm' },
      );
      // The engine only hands the handler this answer once the requestState it
      // sealed came back intact, bound to this tool and these arguments.
      return `state-ok: confirmed=${String(answer.content?.ok === true)}`;
    },
  }),
  defineTool({
    name: 'test_input_required_result_multiple_inputs',
    description: 'Ask three things in one round: a name (elicitation), a greeting (sampling) and the roots.',
    effect: 'read',
    world: 'closed',
    handler: async (_args, ctx) => {
      // Asked together, they go out together: one input_required with three inputRequests.
      const [person, greeting, roots] = await Promise.all([
        ctx.elicit({ message: 'What is your name?', requestedSchema: NAME_SCHEMA }, { key: 'user_name' }),
        ctx.sample(
          { messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 },
          { key: 'greeting' },
        ),
        ctx.listRoots({ key: 'client_roots' }),
      ]);
      return `Name: ${String(person.content?.name ?? '')}; Greeting: ${sampledText(greeting)}; Roots: ${roots.length}`;
    },
  }),
  defineTool({
    name: 'test_input_required_result_multi_round',
    description: 'Ask a name, then (in a second round) a favourite colour.',
    effect: 'read',
    world: 'closed',
    handler: async (_args, ctx) => {
      const step1 = await ctx.elicit(
        { message: 'Step 1: What is your name?', requestedSchema: NAME_SCHEMA },
        { key: 'step1' },
      );
      const step2 = await ctx.elicit(
        {
          message: 'Step 2: What is your favorite color?',
          requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
        },
        { key: 'step2' },
      );
      return `${String(step1.content?.name ?? '')} likes ${String(step2.content?.color ?? '')}.`;
    },
  }),
  defineTool({
    name: 'test_input_required_result_tampered_state',
    description: 'Ask one question; a retry whose requestState was altered is refused (-32602) before this runs.',
    effect: 'read',
    world: 'closed',
    handler: async (_args, ctx) => {
      const answer = await ctx.confirm('Go ahead?', { key: 'go_ahead' });
      return answer ? 'Went ahead.' : 'Stopped.';
    },
  }),
  defineTool({
    name: 'test_input_required_result_capabilities',
    description: 'Ask only what the client declared it can answer: the user if it elicits, its model if it samples.',
    effect: 'read',
    world: 'closed',
    handler: async (_args, ctx) => {
      const can = ctx.clientCapabilities;
      const asked: Promise<string>[] = [];
      if (can.elicitation !== undefined) {
        asked.push(
          ctx
            .elicit({ message: 'What is your name?', requestedSchema: NAME_SCHEMA }, { key: 'user_name' })
            .then((answer) => `name ${String(answer.content?.name ?? '')}`),
        );
      }
      if (can.sampling !== undefined) {
        asked.push(
          ctx
            .sample(
              { messages: [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }], maxTokens: 20 },
              { key: 'hello' },
            )
            .then((answer) => `model ${sampledText(answer)}`),
        );
      }
      if (asked.length === 0) return 'The client can answer nothing; nothing was asked.';
      return (await Promise.all(asked)).join('; ');
    },
  }),
];

export const inputPrompts = [
  definePrompt({
    name: 'test_input_required_result_prompt',
    description: 'A prompt that asks the user for context before it is built.',
    get: async (_args, ctx) => {
      const answer = await ctx.elicit(
        {
          message: 'What context should the prompt use?',
          requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
        },
        { key: 'user_context' },
      );
      return `Use this context: ${String(answer.content?.context ?? '')}`;
    },
  }),
];
