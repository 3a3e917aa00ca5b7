/**
 * examples/everything: a candor server with every tool, resource and prompt
 * the official conformance suite (`@modelcontextprotocol/conformance`) expects
 * of a server. `main.ts` serves it over Streamable HTTP.
 */
import { z } from 'zod';
import {
  type CandorServer,
  createServer,
  definePrompt,
  defineResource,
  defineResourceTemplate,
  defineTool,
  ToolError,
} from '../../src/index.js';
import { diagnosticTools } from './diagnostic-fixtures.js';
import { inputPrompts, inputTools } from './input-fixtures.js';
import { redPixelPng, silentWav } from './media.js';
import { taskTools } from './tasks-fixtures.js';

const PNG = redPixelPng();
const WAV = silentWav();
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** Everything the tools of this example need: the conformance names, honest effects. */
const tools = [
  defineTool({
    name: 'test_simple_text',
    description: 'Return a simple text response.',
    effect: 'read',
    world: 'closed',
    handler: () => 'This is a simple text response for testing.',
  }),
  defineTool({
    name: 'test_image_content',
    description: 'Return a 1x1 red PNG image.',
    effect: 'read',
    world: 'closed',
    handler: () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }),
  }),
  defineTool({
    name: 'test_audio_content',
    description: 'Return a short silent WAV clip.',
    effect: 'read',
    world: 'closed',
    handler: () => ({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] }),
  }),
  defineTool({
    name: 'test_embedded_resource',
    description: 'Return an embedded text resource.',
    effect: 'read',
    world: 'closed',
    handler: () => ({
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    }),
  }),
  defineTool({
    name: 'test_multiple_content_types',
    description: 'Return text, an image and an embedded resource together.',
    effect: 'read',
    world: 'closed',
    handler: () => ({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  }),
  defineTool({
    name: 'test_tool_with_logging',
    description: 'Send three info log messages while running.',
    effect: 'read',
    world: 'closed',
    handler: async (_args, ctx) => {
      await ctx.log('info', 'Tool execution started');
      await sleep(50, ctx.signal);
      await ctx.log('info', 'Tool processing data');
      await sleep(50, ctx.signal);
      await ctx.log('info', 'Tool execution completed');
      return 'Logging test completed: sent 3 log messages.';
    },
  }),
  defineTool({
    name: 'test_error_handling',
    description: 'Always fail, to test error reporting.',
    effect: 'read',
    world: 'closed',
    handler: () => {
      throw new ToolError('This tool intentionally returns an error for testing');
    },
  }),
  defineTool({
    name: 'test_tool_with_progress',
    description: 'Report progress 0, 50 and 100 of 100.',
    effect: 'read',
    world: 'closed',
    handler: async (_args, ctx) => {
      await ctx.progress(0, 100);
      await sleep(50, ctx.signal);
      await ctx.progress(50, 100);
      await sleep(50, ctx.signal);
      await ctx.progress(100, 100);
      return 'Progress test completed.';
    },
  }),
  defineTool({
    name: 'test_sampling',
    description: "Ask the client's model to answer a prompt.",
    input: z.object({ prompt: z.string().describe('The prompt to send to the LLM') }),
    effect: 'read',
    world: 'open',
    handler: async ({ prompt }, ctx) => {
      const reply = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
        maxTokens: 100,
      });
      const content = reply.content as { type?: string; text?: string };
      return `LLM response: ${content.type === 'text' ? content.text : JSON.stringify(content)}`;
    },
  }),
  defineTool({
    name: 'test_elicitation',
    description: 'Ask the user for a username and an email address.',
    input: z.object({ message: z.string().describe('The message to show the user') }),
    effect: 'read',
    world: 'closed',
    handler: async ({ message }, ctx) => {
      const answer = await ctx.elicit({
        message,
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
      });
      return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  }),
  defineTool({
    name: 'test_elicitation_sep1034_defaults',
    description: 'Elicit with a default value for every primitive type (SEP-1034).',
    effect: 'read',
    world: 'closed',
    handler: async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Please review and update the form fields with defaults',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: {
              type: 'string',
              description: 'User status',
              enum: ['active', 'inactive', 'pending'],
              default: 'active',
            },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
        },
      });
      return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  }),
  defineTool({
    name: 'test_elicitation_sep1330_enums',
    description: 'Elicit with all five enum shapes (SEP-1330).',
    effect: 'read',
    world: 'closed',
    handler: async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Please select options from the enum fields',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: {
              type: 'string',
              description: 'Untitled single-select',
              enum: ['option1', 'option2', 'option3'],
            },
            titledSingle: {
              type: 'string',
              description: 'Titled single-select',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: {
              type: 'string',
              description: 'Legacy titled enum',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: {
              type: 'array',
              description: 'Untitled multi-select',
              items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            },
            titledMulti: {
              type: 'array',
              description: 'Titled multi-select',
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
        },
      });
      return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  }),
  defineTool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    input: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: {
          $anchor: 'postalAddress',
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
        },
      },
      properties: {
        name: { type: 'string' },
        address: { $ref: '#/$defs/address' },
        preferred: { type: 'string', enum: ['phone', 'email'] },
        phone: { type: 'string' },
        email: { type: 'string' },
      },
      // Composition and conditionals (SEP-2106): candor passes them through as written.
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      if: { properties: { preferred: { const: 'phone' } }, required: ['preferred'] },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's keyword; an object, not a function, so never a thenable.
      then: { required: ['phone'] },
      else: { required: ['email'] },
      additionalProperties: false,
    },
    effect: 'read',
    world: 'closed',
    handler: (args) => `Received: ${JSON.stringify(args)}`,
  }),
  defineTool({
    name: 'test_region_lookup',
    description: 'Look up a key in one region; the region is mirrored into an Mcp-Param-Region header for routing.',
    input: {
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region', description: 'Where to look, e.g. eu-west-1.' },
        key: { type: 'string' },
      },
      required: ['region', 'key'],
    },
    effect: 'read',
    world: 'closed',
    handler: (args) => {
      const { region, key } = args as { region: string; key: string };
      return `No value for ${key} in ${region} (a test server).`;
    },
  }),
  defineTool({
    name: 'test_reconnection',
    description: 'Close the SSE stream mid-call; the client resumes with Last-Event-ID (SEP-1699).',
    effect: 'read',
    world: 'closed',
    handler: async (_args, ctx) => {
      // ctx.http.closeStream() exists over Streamable HTTP (src/transports/http): end this
      // POST's stream now; the result is delivered when the client reconnects.
      const http = ctx.http as { closeStream?: () => boolean } | undefined;
      http?.closeStream?.();
      await sleep(100, ctx.signal);
      return 'Reconnection test completed.';
    },
  }),
];

const resources = [
  defineResource({
    uri: 'test://static-text',
    name: 'static-text',
    title: 'Static text',
    description: 'A static text resource for testing.',
    mimeType: 'text/plain',
    read: () => 'This is the content of the static text resource.',
  }),
  defineResource({
    uri: 'test://static-binary',
    name: 'static-binary',
    title: 'Static binary',
    description: 'A static binary resource (a PNG image) for testing.',
    mimeType: 'image/png',
    read: () => ({ blob: PNG }),
  }),
  defineResource({
    uri: 'test://watched-resource',
    name: 'watched-resource',
    description: 'A resource clients can subscribe to.',
    mimeType: 'text/plain',
    read: () => 'Watched resource content.',
  }),
  defineResourceTemplate({
    uriTemplate: 'test://template/{id}/data',
    name: 'template-data',
    title: 'Data by id',
    description: 'Data for an id, from a resource template.',
    mimeType: 'application/json',
    complete: { id: (value) => ['123', '456', '789'].filter((id) => id.startsWith(value)) },
    read: ({ variables }) =>
      JSON.stringify({ id: variables.id, templateTest: true, data: `Data for ID: ${String(variables.id)}` }),
  }),
];

const prompts = [
  definePrompt({
    name: 'test_simple_prompt',
    description: 'A simple prompt without arguments.',
    get: () => 'This is a simple prompt for testing.',
  }),
  definePrompt({
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two required arguments.',
    arguments: z.object({
      arg1: z.string().describe('First test argument'),
      arg2: z.string().describe('Second test argument'),
    }),
    complete: {
      arg1: (value) => ['paris', 'park', 'party', 'test', 'testing'].filter((v) => v.startsWith(value)),
    },
    get: ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
  }),
  definePrompt({
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt that embeds a resource.',
    arguments: z.object({ resourceUri: z.string().describe('URI of the resource to embed') }),
    get: ({ resourceUri }) => [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
        },
      },
      { role: 'user', content: 'Please process the embedded resource above.' },
    ],
  }),
  definePrompt({
    name: 'test_prompt_with_image',
    description: 'A prompt with an image.',
    get: () => [
      { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      { role: 'user', content: 'Please analyze the image above.' },
    ],
  }),
];

/**
 * Build the example server.
 *
 * @example
 * ```ts
 * const server = createEverythingServer();
 * await server.listen({ port: 3000 });
 * ```
 */
export function createEverythingServer(): CandorServer {
  const server: CandorServer = createServer({
    name: 'candor-everything',
    version: '1.0.0',
    title: 'candor: everything the conformance suite asks for',
    instructions: 'A test server: every tool, resource and prompt of the MCP conformance suite.',
    tools: [...tools, ...inputTools, ...taskTools, ...diagnosticTools(() => server)],
    resources,
    prompts: [...prompts, ...inputPrompts],
  });
  return server;
}
