/**
 * The gateway config's keys as plain data: what each means, a value it accepts and
 * one it refuses. The config reference page is generated from these by running the
 * validator on both values, so the page shows the validator's own words, and a key
 * the validator learns without being described here fails its test.
 */

/** One key of the config: its meaning, a value the validator accepts and one it refuses. */
export interface ConfigKeyDoc {
  key: string;
  /** The JSON shape, in words (`"all" | "search"`, `number (ms)`). */
  type: string;
  summary: string;
  example: unknown;
  /** A value the validator refuses; absent when any value of the type is taken as is. */
  invalid?: unknown;
  /** For entry keys: shown on a remote (`url`) entry rather than a stdio (`command`) one. */
  remote?: true;
}

/** The top-level keys (`candor.gateway.json`, or the `gateway` key of `candor.config.json`). */
export const GATEWAY_KEY_DOCS: readonly ConfigKeyDoc[] = [
  {
    key: 'servers',
    type: 'object of entries by name',
    summary:
      'The upstream servers; each name prefixes its tools and prompts (`name__tool`). Names use letters, digits, `_`, `-` and `.`, never `__`.',
    example: { memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } },
    invalid: {},
  },
  {
    key: 'mcpServers',
    type: 'object of entries by name',
    summary:
      'The same as `servers`, as client configs name it; a file with only `mcpServers` is a client config: its entries are untrusted upstreams and its other keys are left to the client.',
    example: { memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } },
    invalid: { a__b: { command: 'node' } },
  },
  {
    key: 'results',
    type: '{ secrets, injection } of "redact" | "annotate" | "block" | "off"',
    summary:
      "What the result guards do with secrets and injected instructions in tool results, for every server (an entry's own `results` wins); see [result guards](../gateway/result-guards.md).",
    example: { injection: 'block' },
    invalid: { secrets: 'hide' },
  },
  {
    key: 'hooks',
    type: '{ beforeCall, afterCall, timeoutMs, failure, allowRemoteHttp }',
    summary:
      "Your own HTTP endpoints asked before and after each call (allow, deny or change it), for every server (an entry's own `hooks` wins); see [hooks](../gateway/hooks.md).",
    example: { beforeCall: 'http://127.0.0.1:8787/before', failure: 'closed' },
    invalid: { beforeCall: 'http://127.0.0.1:8787/before', failure: 'maybe' },
  },
  {
    key: 'policy',
    type: 'preset name | { preset, rules }',
    summary:
      'When a call runs, asks or is refused: a preset (`default`, `confirm-writes`, `plan`, `yolo`), or a preset plus rules (`decision` allow/ask/deny by tools, servers, tags, hints).',
    example: { preset: 'default', rules: [{ decision: 'allow', tools: 'memory__read_graph' }] },
    invalid: { rules: [{ tools: 'memory__*' }] },
  },
  {
    key: 'overrides',
    type: 'path',
    summary: "Your declarations of third-party tools' effects: the strongest source of hints.",
    example: 'candor.overrides.json',
    invalid: '',
  },
  {
    key: 'lock',
    type: 'path | { file, onChange, onNew }',
    summary:
      'Pin upstream tools against a lockfile (`candor pin --config …` writes it); a changed tool is blocked (`onChange`, default `block`), a new one asked about (`onNew`, default `ask`).',
    example: { file: 'candor.lock.json', onChange: 'block', onNew: 'ask' },
    invalid: { file: 'candor.lock.json', onChange: 'ignore' },
  },
  {
    key: 'approvalsFile',
    type: 'path',
    summary:
      '"Allow always" answers, kept against each tool\'s pin hash (default `candor.approvals.json` by the lockfile).',
    example: 'candor.approvals.json',
    invalid: 5,
  },
  {
    key: 'commandTools',
    type: 'object of { argument } by tool glob',
    summary: 'Shell-running tools whose command argument goes through the command gate.',
    example: { 'shell__run_*': { argument: 'command' } },
    invalid: { 'shell__run_*': 'command' },
  },
  {
    key: 'rateLimits',
    type: '{ servers, tools } of { windowMs, max }',
    summary: 'Rate limits per upstream (all its tools share one) and per namespaced tool.',
    example: { servers: { memory: { windowMs: 60000, max: 120 } } },
    invalid: { servers: { memory: { windowMs: 60000, max: 0.5 } } },
  },
  {
    key: 'quotas',
    type: 'array of { name, servers, tools, effects, per, max, windowMs }',
    summary:
      'Caps on calls per person (or for everyone) over a window, by server, tool glob or effect; see [quotas](../gateway/quotas.md).',
    example: [{ name: 'deletes per hour', effects: ['destructive'], max: 20, windowMs: 3600000 }],
    invalid: [{ max: 20 }],
  },
  {
    key: 'quotaCounts',
    type: 'path',
    summary:
      "A file the quotas' counts are kept in, so a restart does not reset them (without Redis; with Redis they live there). Default: in memory.",
    example: 'quota-counts.json',
    invalid: 5,
  },
  {
    key: 'taint',
    type: '"ask" | "deny" | "off"',
    summary:
      'After a result from an open-world tool or an untrusted server, destructive or sending calls ask (default; `off` under yolo), are refused, or run as the policy says; profiles may set their own. See [taint](../gateway/taint.md).',
    example: 'deny',
    invalid: 'block',
  },
  {
    key: 'audit',
    type: 'path | "-"',
    summary:
      'Append one JSON line per call (time, session, tool, decision, outcome; arguments as a hash and key names, never values); `-` for stderr.',
    example: 'gateway-audit.jsonl',
    invalid: true,
  },
  {
    key: 'timeoutMs',
    type: 'number (ms)',
    summary: 'How long an upstream call may take.',
    example: 60000,
    invalid: 0,
  },
  {
    key: 'confirmTimeoutMs',
    type: 'number (ms)',
    summary: 'How long a person may take to answer a confirmation before the call is denied (default 5 minutes).',
    example: 120000,
    invalid: -1,
  },
  {
    key: 'reconnect',
    type: '{ initialDelayMs, maxDelayMs }',
    summary: 'Backoff for upstreams that fail to start or die (default 1 s doubling to 60 s).',
    example: { initialDelayMs: 500, maxDelayMs: 30000 },
    invalid: { maxDelayMs: 'soon' },
  },
  {
    key: 'sandbox',
    type: 'boolean',
    summary: 'Run every stdio upstream not marked `"sandbox": false` in the default sandbox (like `--sandbox`).',
    example: true,
    invalid: 'yes',
  },
  {
    key: 'toolList',
    type: '"all" | "search" | "code"',
    summary:
      '`all` lists every tool; `search` starts each session with the `alwaysList` tools and `find_tools`, and lists what it finds; `code` lists `search_tools`, `tool_api`, `run_script`, `save_script` and the stored scripts, and the model calls tools from a sandboxed script.',
    example: 'search',
    invalid: 'some',
  },
  {
    key: 'codeMode',
    type: 'object of script limits: memoryBytes, stackBytes, cpuMs, deadlineMs, outputBytes, maxCalls',
    summary:
      'The limits a code-mode script runs under (each whole number in its range: memoryBytes 1 MiB–1 GiB, stackBytes 32–256 KiB, cpuMs 10–600000, deadlineMs 100–3600000, outputBytes 1 KiB–16 MiB, maxCalls 1–10000); a profile may set its own. See [code mode](../gateway/code-mode.md).',
    example: { cpuMs: 1000, maxCalls: 50 },
    invalid: { cpuMs: 0 },
  },
  {
    key: 'scripts',
    type: 'path',
    summary:
      'The file of stored scripts that code-mode endpoints list as tools (default `candor.scripts.json` next to this file).',
    example: 'candor.scripts.json',
    invalid: 7,
  },
  {
    key: 'alwaysList',
    type: 'array of tool globs',
    summary: 'With `"toolList": "search"`: the tools every session lists from the start.',
    example: ['memory__read_graph', 'files__read_*'],
    invalid: 'memory__*',
  },
  {
    key: 'prefix',
    type: '"always" | "never" | "on-clash"',
    summary:
      'Tool names as `server__tool` (always), as the upstream names them (never; refuses to start on a clash), or prefixed only where two servers share a name.',
    example: 'on-clash',
    invalid: 'sometimes',
  },
  {
    key: 'profiles',
    type: 'object of { servers, tools, readOnly, toolList, taint, codeMode, groups, departments } by name',
    summary:
      "Named slices of the gateway, served at `/mcp/<name>` over HTTP and with `--profile <name>` over stdio; `groups` / `departments` admit only people whose token's claims match.",
    example: { reader: { servers: ['memory'], readOnly: true } },
    invalid: { reader: { servers: ['nowhere'] } },
  },
  {
    key: 'rules',
    type: 'path',
    summary:
      'Per-person rules in Cedar, checked against `docs/cedar/candor.cedarschema` (actions `call` and `call_unconfirmed`).',
    example: 'candor.cedar',
    invalid: [],
  },
  {
    key: 'groupsClaim',
    type: 'string',
    summary: "The token claim holding the person's groups, for `rules` and profiles' `groups` (default `groups`).",
    example: 'roles',
    invalid: '',
  },
  {
    key: 'departmentClaim',
    type: 'string',
    summary:
      "The token claim holding the person's department, for `rules` and profiles' `departments` (default `department`).",
    example: 'dept',
    invalid: '',
  },
];

/** The keys of one server entry (under `servers` or `mcpServers`). */
export const ENTRY_KEY_DOCS: readonly ConfigKeyDoc[] = [
  {
    key: 'command',
    type: 'string',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own variable syntax, not a template.
    summary: 'A stdio server: the program to start (`${NAME}` and `${env:NAME}` are expanded).',
    example: 'npx',
    invalid: ' ',
  },
  {
    key: 'args',
    type: 'array of strings',
    summary: "A stdio server's arguments.",
    example: ['-y', '@modelcontextprotocol/server-memory'],
    invalid: '-y server',
  },
  {
    key: 'env',
    type: 'object of strings',
    summary:
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own variable syntax, not a template.
      "A stdio server's environment, over a short safe default (`HOME`, `PATH`, `USER`, …); `${NAME}` reads yours.",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own variable syntax, not a template.
    example: { MEMORY_FILE_PATH: '${HOME}/memory.jsonl' },
    invalid: { PORT: 3000 },
  },
  {
    key: 'cwd',
    type: 'path',
    summary: "A stdio server's working folder, relative to the config file.",
    example: 'servers/memory',
  },
  {
    key: 'url',
    remote: true,
    type: 'http(s) URL',
    summary: "A remote server's Streamable HTTP endpoint.",
    example: 'https://mcp.example.com/mcp',
    invalid: 'ws://mcp.example.com/mcp',
  },
  {
    key: 'headers',
    remote: true,
    type: 'object of strings',
    summary: 'Headers sent to a remote server (an `Authorization` header here turns OAuth off for it).',
    example: { 'X-Team': 'tools' },
    invalid: { 'X-Retries': 3 },
  },
  {
    key: 'auth',
    remote: true,
    type: '"oauth" | "oauth-per-user" | { clientId, clientSecretEnv, clientMetadataUrl, scopes, grant, tokenExchange }',
    summary:
      "How candor signs in to a remote server: its own sign-in (`oauth`, the default when the server asks), one per person (`oauth-per-user`), a registered client, or the calling person's token exchanged for one to this server (`tokenExchange`, gateway only).",
    example: 'oauth',
    invalid: 'basic',
  },
  {
    key: 'trust',
    type: '"trusted" | "untrusted"',
    summary: "Whether the server's hints may relax prompts (default `untrusted`: they can only make them stricter).",
    example: 'trusted',
    invalid: 'yes',
  },
  {
    key: 'timeoutMs',
    type: 'number (ms)',
    summary: "How long this server's calls may take (over the top-level `timeoutMs`).",
    example: 30000,
    invalid: '30s',
  },
  {
    key: 'protocol',
    type: '"2025-11-25" | "2026-07-28" | "auto"',
    summary:
      'The protocol version the gateway holds this server to, as in a client config entry; `auto` speaks 2026-07-28 where the server offers it.',
    example: '2025-11-25',
    invalid: '2024-11-05',
  },
  {
    key: 'era',
    type: '"auto" | "legacy" | "modern"',
    summary:
      'The older spelling of `protocol` (read only when `protocol` is absent): 2026-07-28 where offered (`auto`), 2025-11-25 only (`legacy`), or 2026-07-28 only (`modern`).',
    example: 'legacy',
    invalid: '2026',
  },
  {
    key: 'results',
    type: '{ secrets, injection, tools: { "<name or glob>": { secrets, injection } } }',
    summary:
      "This server's result guards, over the top-level `results`; `tools` sets them per tool (its name on the server or `server__tool`, globs allowed; the most specific entry wins).",
    example: { secrets: 'block', tools: { 'fetch_*': { injection: 'block' } } },
    invalid: { tools: { 'fetch_*': { injection: 'drop' } } },
  },
  {
    key: 'hooks',
    type: '{ beforeCall, afterCall, timeoutMs, failure }',
    summary: "This server's call hooks, over the top-level `hooks`.",
    example: { afterCall: 'http://127.0.0.1:8787/after' },
    invalid: { timeoutMs: 0 },
  },
  {
    key: 'sandbox',
    type: 'boolean | sandbox object',
    summary:
      'A stdio server in the bubblewrap sandbox (`true`: no network, private HOME, env PATH only), a sandbox of its own, or `false`.',
    example: true,
    invalid: 'strict',
  },
];
