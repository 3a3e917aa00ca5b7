/**
 * The catalog's corners over a real SDK server (in memory): MCP Apps
 * visibility, hint normalisation, always-confirm tools, model-API exports
 * and the command gate for a shell tool.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type ConfirmRequest, createHost, type Host, type HostOptions } from '../../src/host/index.js';
import { type AppsServer, startAppsServer } from '../fixtures/host/apps-server.js';

let server: AppsServer | undefined;
let host: Host | undefined;

afterEach(async () => {
  await host?.close();
  await server?.close();
  host = undefined;
  server = undefined;
});

async function appsHost(options: Partial<HostOptions> & { trust?: 'trusted' | 'untrusted' } = {}): Promise<Host> {
  const { trust = 'trusted', ...rest } = options;
  server = await startAppsServer();
  host = await createHost({ servers: { apps: { transport: server.transport, trust, era: 'legacy' } }, ...rest });
  return host;
}

describe('MCP Apps visibility', () => {
  it('leaves tools whose visibility lacks "model" out of the model list, and refuses them from the model', async () => {
    const h = await appsHost();
    const listed = h.tools().map((t) => t.toolName);
    expect(listed).toContain('show_chart');
    expect(listed).toContain('model_only');
    expect(listed).not.toContain('refresh_chart');
    expect(h.catalog().map((t) => t.toolName)).toContain('refresh_chart');
    const outcome = await h.call('apps__refresh_chart');
    expect(outcome.status).toBe('denied');
    expect(server!.calls).toEqual([]);
  });

  it('lets an app call tools whose visibility includes "app" (not only those equal to ["app"])', async () => {
    const h = await appsHost();
    expect((await h.callFromApp({ server: 'apps', tool: 'refresh_chart' })).status).toBe('ok');
    expect((await h.callFromApp({ server: 'apps', tool: 'show_chart' })).status).toBe('ok');
    const refused = await h.callFromApp({ server: 'apps', tool: 'model_only' });
    expect(refused.status).toBe('denied');
    expect(refused.message).toContain('lacks "app"');
    expect(server!.calls.map((c) => c.name)).toEqual(['refresh_chart', 'show_chart']);
  });

  it('still applies policy to app calls', async () => {
    const h = await appsHost({ trust: 'untrusted' });
    expect((await h.callFromApp({ server: 'apps', tool: 'refresh_chart' })).status).toBe('denied');
    expect(server!.calls).toEqual([]);
  });
});

describe('normalised annotations', () => {
  it('accepts snake_case hints and fills in the spec defaults, failing closed', async () => {
    const h = await appsHost();
    const snake = h.tool('apps__snake_read')!;
    expect(snake.hints).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(snake.hintSources.readOnlyHint).toBe('server');
    const bare = h.tool('apps__bare')!;
    expect(bare.hints).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(Object.values(bare.hintSources)).toEqual(['default', 'default', 'default', 'default']);
    expect(h.tool('apps__show_chart')!.ui).toEqual({ resourceUri: 'ui://charts/view', visibility: ['model', 'app'] });
  });

  it('always confirms a tool marked anthropic/requiresUserInteraction, even from a trusted server in yolo', async () => {
    const asked: ConfirmRequest[] = [];
    const h = await appsHost({
      policy: 'yolo',
      onConfirm: (r) => {
        asked.push(r);
        return 'allow-always' as const;
      },
    });
    expect((await h.call('apps__sign_contract')).status).toBe('ok');
    expect((await h.call('apps__sign_contract')).status).toBe('ok');
    expect(asked).toHaveLength(2);
    expect(asked[0]!.reason).toContain('always requiring user interaction');
    expect(asked[0]!.canRemember).toBe(false);
  });
});

describe('exports for model APIs', () => {
  it('exports the model-visible tools as OpenAI function tools, with API-safe names run() accepts', async () => {
    const h = await appsHost();
    const tools = h.toOpenAITools();
    const names = tools.map((t) => t.function.name);
    expect(names).not.toContain('apps__refresh_chart');
    const search = tools.find((t) => t.function.name.startsWith('apps__search_v2'))!;
    expect(search.function.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(search).toEqual({
      type: 'function',
      function: {
        name: search.function.name,
        description: 'A dotted name model APIs do not accept as is.',
        parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
      },
    });
    const outcome = await h.call(search.function.name, { q: 'x' });
    expect(outcome.status).toBe('ok');
    expect(server!.calls.at(-1)).toEqual({ name: 'search.v2', args: { q: 'x' } });
    expect(outcome.untrustedContent).toBe(true);
  });

  it('exports Anthropic tools and the Responses API shape, putting title and hints in the description only on request', async () => {
    const h = await appsHost();
    const plain = h.toAnthropicTools().find((t) => t.name === 'apps__snake_read')!;
    expect(plain).toEqual({
      name: 'apps__snake_read',
      description: 'Hints in snake case.',
      input_schema: { type: 'object', properties: {} },
    });
    const described = h.toAnthropicTools({ describeHints: true }).find((t) => t.name === 'apps__bare')!;
    expect(described.description).toBe('bare: No hints at all.\n\n(destructive; open world)');
    const responses = h.toOpenAITools({ api: 'responses' })[0]!;
    expect(responses).toMatchObject({ type: 'function', strict: false });
    expect(typeof responses.name).toBe('string');
  });
});

describe('the command gate on a shell tool', () => {
  const gated = { commandTools: { apps__run_shell: { argument: 'command' } } };

  it('runs a read-only command line without a prompt, even from an untrusted server', async () => {
    const asked: ConfirmRequest[] = [];
    const h = await appsHost({
      trust: 'untrusted',
      ...gated,
      onConfirm: (r) => {
        asked.push(r);
        return 'deny' as const;
      },
    });
    const outcomes = await h.run([
      { tool: 'apps__run_shell', args: { command: 'git status && ls -la | head' } },
      { tool: 'apps__run_shell', args: { command: 'cat a && rm -rf ~' } },
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['ok', 'denied']);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.command).toMatchObject({ text: 'cat a && rm -rf ~', decision: 'ask' });
    expect(asked[0]!.reason).toContain('rm is not a known read-only command');
    expect(asked[0]!.canRemember).toBe(false);
    expect(server!.calls.map((c) => c.args)).toEqual([{ command: 'git status && ls -la | head' }]);
  });

  it('offers the shell tool in plan mode but runs only read-only commands there', async () => {
    const h = await appsHost({ policy: 'plan', ...gated, onConfirm: () => 'allow-once' });
    expect(h.tools().map((t) => t.toolName)).toContain('run_shell');
    const outcomes = await h.run([
      { tool: 'apps__run_shell', args: { command: 'grep -rn TODO src | sort' } },
      { tool: 'apps__run_shell', args: { command: 'ls > listing.txt' } },
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['ok', 'denied']);
    expect(outcomes[1]!.message).toContain('redirects output to a file');
  });

  it('treats a missing command argument as a call that must ask', async () => {
    const h = await appsHost({ ...gated });
    const outcome = await h.call('apps__run_shell', { cmd: 'ls' });
    expect(outcome.status).toBe('denied');
    expect(outcome.message).toContain('not a string');
  });
});
