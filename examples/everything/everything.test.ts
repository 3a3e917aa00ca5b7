/**
 * examples/everything through the SDK v2 client in memory: the tools,
 * resources and prompts the conformance suite calls answer as it expects.
 * (scripts/conformance.sh runs the suite itself over HTTP.)
 */
import { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, test } from 'vitest';
import { createWireCheck } from '../../test/support/wire-check.js';
import { createEverythingServer } from './server.js';

const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

async function connect() {
  const server = createEverythingServer();
  const wire = createWireCheck();
  const client = new Client(
    { name: 'everything-test', version: '1.0.0' },
    { capabilities: { sampling: {}, elicitation: {} } },
  );
  await client.connect(wire.wrap(server.connectMemory()));
  clients.push(client);
  return { client, wire };
}

describe('examples/everything', () => {
  test('lists every tool the conformance suite calls, each with all four hints', async () => {
    const { client, wire } = await connect();
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of [
      'test_simple_text',
      'test_image_content',
      'test_audio_content',
      'test_embedded_resource',
      'test_multiple_content_types',
      'test_tool_with_logging',
      'test_error_handling',
      'test_tool_with_progress',
      'test_sampling',
      'test_elicitation',
      'test_elicitation_sep1034_defaults',
      'test_elicitation_sep1330_enums',
      'json_schema_2020_12_tool',
      'test_reconnection',
    ]) {
      expect(names).toContain(name);
    }
    const schema = tools.find((t) => t.name === 'json_schema_2020_12_tool')?.inputSchema as Record<string, unknown>;
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$defs).toBeDefined();
    wire.assertClean();
  });

  test('media tools return a decodable PNG and WAV', async () => {
    const { client } = await connect();
    const image = (await client.callTool({ name: 'test_image_content', arguments: {} })).content[0] as { data: string };
    expect(Buffer.from(image.data, 'base64').subarray(1, 4).toString('ascii')).toBe('PNG');
    const audio = (await client.callTool({ name: 'test_audio_content', arguments: {} })).content[0] as { data: string };
    expect(Buffer.from(audio.data, 'base64').subarray(0, 4).toString('ascii')).toBe('RIFF');
  });

  test('logging, progress, sampling and elicitation tools talk to the client', async () => {
    const { client, wire } = await connect();
    const logs: string[] = [];
    client.setNotificationHandler('notifications/message', (n) => void logs.push(String(n.params.data)));
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    expect(logs).toEqual(['Tool execution started', 'Tool processing data', 'Tool execution completed']);
    const progress: number[] = [];
    await client.callTool(
      { name: 'test_tool_with_progress', arguments: {} },
      { onprogress: (p) => void progress.push(p.progress) },
    );
    expect(progress).toEqual([0, 50, 100]);
    client.setRequestHandler('sampling/createMessage', async () => ({
      role: 'assistant',
      model: 'm',
      content: { type: 'text', text: 'hi there' },
    }));
    expect((await client.callTool({ name: 'test_sampling', arguments: { prompt: 'hello' } })).content).toEqual([
      { type: 'text', text: 'LLM response: hi there' },
    ]);
    client.setRequestHandler('elicitation/create', async () => ({
      action: 'accept',
      content: { username: 'u', email: 'e' },
    }));
    expect((await client.callTool({ name: 'test_elicitation', arguments: { message: 'who?' } })).content).toEqual([
      { type: 'text', text: 'User response: action=accept, content={"username":"u","email":"e"}' },
    ]);
    wire.assertClean();
  });

  test('resources, the template and prompts answer as the suite expects', async () => {
    const { client, wire } = await connect();
    expect((await client.readResource({ uri: 'test://template/123/data' })).contents).toEqual([
      {
        uri: 'test://template/123/data',
        mimeType: 'application/json',
        text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}',
      },
    ]);
    const prompt = await client.getPrompt({
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'hello', arg2: 'world' },
    });
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='hello', arg2='world'" } },
    ]);
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'par' },
    });
    expect(completion.completion.values).toEqual(['paris', 'park', 'party']);
    wire.assertClean();
  });
});
