/**
 * `candor gateway [--config FILE | targets… | -- cmd…] [--http [host:]port | --stdio]
 * [--policy P] [--overrides FILE] [--lock FILE] [--audit FILE|-] [--trust NAME…]
 * [--print-config claude|cursor|vscode|gemini]`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type Command, Option } from 'commander';
import { type ClientName, clientNamesText } from '../../gateway/client-names.js';
import { GATEWAY_CONFIG_FILES, loadGatewayConfig, upstreamOf } from '../../gateway/config.js';
import { createGateway } from '../../gateway/gateway.js';
import { hookSettingsFlag } from '../../gateway/hooks/settings.js';
import { CLIENT_ENTRY_NAME, type GatewayLaunch, printConfig } from '../../gateway/print-config.js';
import { resultSettingsFlag } from '../../gateway/results/settings.js';
import { sandboxLines } from '../../gateway/sandboxing.js';
import type { GatewayOptions, UpstreamConfig } from '../../gateway/types.js';
import { POLICY_PRESETS } from '../../host/policy.js';
import type { PolicyPreset } from '../../host/types.js';
import { parseTargets } from '../../targets/parse.js';
import { logSettingsFrom, stderrLogger } from '../../util/logger.js';
import { type AuthFlags, authOptionsFromFlags, hasAuthFlags } from '../auth-flags.js';
import { CliError, EXIT } from '../cli-error.js';
import { clientArg } from '../client-arg.js';
import { registerGatewayManage } from '../gateway-manage.js';
import { splitAtDashDash } from '../operands.js';
import { applyRedisFlag, redisWhere } from '../redis-flag.js';
import { selfCommandHere } from '../self-command.js';
import { DEFAULT_HTTP, type HttpAddress, parseHttpAddress } from './serve.js';

/** The gateway's default HTTP address (next to `candor serve`'s 3000). */
const GATEWAY_HTTP: Readonly<HttpAddress> = Object.freeze({ host: DEFAULT_HTTP.host, port: 4000 });

interface GatewayCliOptions extends AuthFlags {
  config?: string;
  http?: HttpAddress | true;
  stdio?: boolean;
  policy?: PolicyPreset;
  overrides?: string;
  lock?: string;
  audit?: string;
  results?: string;
  hooks?: string;
  trust: string[];
  printConfig?: ClientName;
  redis?: string;
  sandbox?: boolean;
  tools?: 'all' | 'search' | 'code';
  prefix?: 'always' | 'never' | 'on-clash';
  profile?: string;
  rules?: string;
  authGroupsClaim?: string;
}

/** Build gateway options from the command line: a config file, or targets named on it. */
async function gatewayOptions(operands: string[], command: Command, opts: GatewayCliOptions): Promise<GatewayOptions> {
  const { before, command: cmd } = splitAtDashDash(command, operands);
  let config = opts.config;
  if (config === undefined && before.length === 0 && cmd.length === 0) {
    config = GATEWAY_CONFIG_FILES.find((file) => existsSync(file));
    if (config === undefined) {
      throw new CliError(
        'Nothing to put the gateway in front of: pass --config FILE (candor.gateway.json, candor.config.json with a "gateway" key, or a client config with "mcpServers"), server URLs, or -- a stdio command.',
        { exitCode: EXIT.usage },
      );
    }
  }
  let options: GatewayOptions;
  if (config !== undefined) {
    if (before.length > 0 || cmd.length > 0) {
      throw new CliError('Pass either --config or targets on the command line, not both.', { exitCode: EXIT.usage });
    }
    options = await loadGatewayConfig(config);
  } else {
    const targets = await parseTargets({ targets: before, command: cmd }).catch((error: Error) => {
      throw new CliError(error.message, { exitCode: EXIT.usage, cause: error });
    });
    const servers: Record<string, UpstreamConfig> = {};
    for (const target of targets) {
      const name = nameFor(target, servers);
      if (target.kind === 'invalid') throw new CliError(`${target.label}: ${target.reason}`, { exitCode: EXIT.usage });
      if (target.kind === 'module') {
        throw new CliError(`${target.label}: a module cannot be a gateway upstream; run it with candor serve.`, {
          exitCode: EXIT.usage,
        });
      }
      servers[name] = upstreamOf(target);
    }
    options = { servers };
  }
  for (const name of opts.trust) {
    const server = options.servers[name];
    if (!server) {
      throw new CliError(
        `--trust ${name}: no upstream of that name; the upstreams are ${Object.keys(options.servers).join(', ')}.`,
        {
          exitCode: EXIT.usage,
        },
      );
    }
    server.trust = 'trusted';
  }
  if (opts.policy !== undefined) {
    const current = options.policy;
    options.policy =
      typeof current === 'object' && current !== null ? { ...current, preset: opts.policy } : opts.policy;
  }
  if (opts.sandbox) options.sandbox = true;
  if (opts.overrides !== undefined) options.overrides = path.resolve(opts.overrides);
  if (opts.lock !== undefined) options.lock = { ...options.lock, file: path.resolve(opts.lock) };
  if (opts.audit !== undefined) options.audit = opts.audit === '-' ? '-' : path.resolve(opts.audit);
  if (opts.tools !== undefined) options.toolList = opts.tools;
  if (opts.results !== undefined) {
    const results = resultSettingsFlag(opts.results);
    if (typeof results === 'string') throw new CliError(results, { exitCode: EXIT.usage });
    options.results = { ...options.results, ...results };
  }
  if (opts.hooks !== undefined) {
    const hooks = hookSettingsFlag(opts.hooks, options.hooks);
    if (typeof hooks === 'string') throw new CliError(hooks, { exitCode: EXIT.usage });
    options.hooks = hooks;
  }
  if (opts.prefix !== undefined) options.prefix = opts.prefix;
  if (opts.rules !== undefined) options.rules = path.resolve(opts.rules);
  if (opts.authGroupsClaim !== undefined) options.groupsClaim = opts.authGroupsClaim;
  // Settings from the environment enter here, at the edge, as options.
  if (options.tokenKey === undefined && process.env.CANDOR_TOKEN_KEY !== undefined)
    options.tokenKey = process.env.CANDOR_TOKEN_KEY;
  if (process.env.CANDOR_LEAN_CALLS === '0') options.leanCalls = false;
  options.logger ??= stderrLogger({ name: 'candor gateway', ...logSettingsFrom(process.env) });
  return options;
}

/** A server name for a target named on the command line: `memory`, `127.0.0.1-3000`, made unique (also used by `candor ui`). */
export function nameFor(
  target: { kind: string; label: string; source?: { name: string }; url?: string; command?: string; args?: string[] },
  taken: Record<string, unknown>,
): string {
  let base = target.source?.name;
  if (base === undefined && target.kind === 'http' && target.url) {
    const url = new URL(target.url);
    base = `${url.hostname}-${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
  }
  if (base === undefined && target.kind === 'stdio') {
    const words = [target.command ?? '', ...(target.args ?? [])].filter((w) => w !== '' && !w.startsWith('-'));
    // The script or package names the server better than a mode word after it (`index.js stdio`).
    const named = words.filter((w) => /[/\\]|\.(?:[cm]?[jt]s|py|rb|sh)$/.test(w));
    const word = named.at(-1) ?? words.at(-1) ?? 'server';
    const pkg = /(?:node_modules\/)?((?:@[^/]+\/)?[^/@]+)(?:@[^/]*)?(?:\/dist\/.*|\/index\.[cm]?js)?$/.exec(
      word.includes('node_modules/') ? word.slice(word.lastIndexOf('node_modules/') + 13) : word,
    );
    base = (pkg?.[1] ?? word)
      .replace(/^@[^/]+\//, '')
      .replace(/^(?:mcp-)?server-/, '')
      .replace(/\.(?:[cm]?[jt]s|py|rb|sh)$/, '');
    base = path.basename(base);
  }
  const clean = (base ?? target.label).replace(/[^A-Za-z0-9.-]+/g, '-').replace(/^-+|-+$/g, '') || 'server';
  let name = clean;
  for (let i = 2; name in taken; i++) name = `${clean}-${i}`;
  return name;
}

/** How a client should start this very gateway (and, for stdio, a line about the command chosen). */
function launchOf(command: Command, opts: GatewayCliOptions, operands: string[]): GatewayLaunch & { note?: string } {
  if (opts.http !== undefined) {
    const address = opts.http === true ? GATEWAY_HTTP : opts.http;
    const host = address.host.includes(':') ? `[${address.host}]` : address.host;
    return { kind: 'http', url: `http://${host}:${address.port}/mcp${opts.profile ? `/${opts.profile}` : ''}` };
  }
  // candor on PATH, npx -y candor@<version>, or a checkout's absolute path: never npx's cache folder.
  const self = selfCommandHere();
  const args = [...self.args, 'gateway', '--stdio'];
  const { before, command: cmd } = splitAtDashDash(command, operands);
  const config = opts.config ?? GATEWAY_CONFIG_FILES.find((file) => existsSync(file));
  if (config !== undefined && before.length === 0 && cmd.length === 0) args.push('--config', path.resolve(config));
  else
    args.push(
      ...before.map((w) => (/^https?:/.test(w) ? w : path.resolve(w))),
      ...(cmd.length > 0 ? ['--', ...cmd] : []),
    );
  if (opts.policy) args.push('--policy', opts.policy);
  if (opts.sandbox) args.push('--sandbox');
  for (const name of opts.trust) args.push('--trust', name);
  if (opts.overrides) args.push('--overrides', path.resolve(opts.overrides));
  if (opts.lock) args.push('--lock', path.resolve(opts.lock));
  if (opts.audit) args.push('--audit', opts.audit === '-' ? '-' : path.resolve(opts.audit));
  if (opts.tools) args.push('--tools', opts.tools);
  if (opts.results) args.push('--results', opts.results);
  if (opts.hooks) args.push('--hooks', opts.hooks);
  if (opts.prefix) args.push('--prefix', opts.prefix);
  if (opts.profile) args.push('--profile', opts.profile);
  if (opts.rules) args.push('--rules', path.resolve(opts.rules));
  return { kind: 'stdio', command: self.command, args, ...(self.note ? { note: self.note } : {}) };
}

function checkProfile(profiles: GatewayOptions['profiles'], name: string): void {
  if (profiles?.[name] !== undefined) return;
  const names = Object.keys(profiles ?? {});
  throw new CliError(
    `--profile ${name}: no such profile; ${names.length > 0 ? `the config's profiles are ${names.join(', ')}` : 'the config has no "profiles"'}.`,
    { exitCode: EXIT.usage },
  );
}

/** Run the gateway until a signal stops it. */
async function runGateway(operands: string[], command: Command, opts: GatewayCliOptions): Promise<void> {
  if (opts.printConfig !== undefined) {
    // How each upstream will run, on stderr: stdout stays the text to paste.
    const options = await gatewayOptions(operands, command, opts);
    if (opts.profile !== undefined) checkProfile(options.profiles, opts.profile);
    const entry = opts.profile === undefined ? CLIENT_ENTRY_NAME : `${CLIENT_ENTRY_NAME}-${opts.profile}`;
    const { note, ...launch } = launchOf(command, opts, operands);
    process.stdout.write(`${printConfig(opts.printConfig, launch, entry)}\n`);
    if (note) process.stderr.write(`${note}\n`);
    for (const line of sandboxLines(options)) process.stderr.write(`${line}\n`);
    return;
  }
  const options = await gatewayOptions(operands, command, opts);
  if (opts.profile !== undefined) checkProfile(options.profiles, opts.profile);
  applyRedisFlag(opts.redis);
  const useStdio = opts.stdio === true || (opts.http === undefined && process.stdin.isTTY !== true);
  const address = opts.http === undefined || opts.http === true ? GATEWAY_HTTP : opts.http;
  if (hasAuthFlags(opts)) {
    if (useStdio) process.stderr.write('candor gateway: --auth-* apply to --http only; stdio is not authenticated.\n');
    else {
      const host = address.host.includes(':') ? `[${address.host}]` : address.host;
      const endpoint = address.port === 0 ? undefined : `http://${host}:${address.port}/mcp`;
      options.auth = authOptionsFromFlags(opts, endpoint);
    }
  }
  const gateway = await createGateway(options);
  const tools = gateway.server.registry.list().length;
  const summary = gateway
    .status()
    .map((s) => `${s.name} (${s.state}${s.state === 'down' ? `: ${s.error}` : `, ${s.tools} tools`}, ${s.trust})`)
    .join(', ');
  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(1);
    stopping = true;
    void close().then(() => process.exit(0));
  };
  let close: () => Promise<void> = () => gateway.close();
  if (useStdio) {
    const endpoint = opts.profile === undefined ? gateway.server : gateway.profile(opts.profile);
    const connection = endpoint.stdio({ handleSignals: false });
    // The client closed stdin: finish what is running, close the upstreams, exit.
    void connection.closed.then(() => stop());
    process.stderr.write(`candor gateway: ${tools} tools from ${summary}; serving over stdio\n`);
    close = () => gateway.close();
  } else {
    let listener: Awaited<ReturnType<typeof gateway.listen>>;
    try {
      listener = await gateway.listen({ host: address.host, port: address.port, handleSignals: false });
    } catch (error) {
      await gateway.close();
      const code = (error as NodeJS.ErrnoException).code;
      throw new CliError(
        `Cannot listen on ${address.host}:${address.port}: ${(error as Error).message}.${code === 'EADDRINUSE' ? ' The port is taken: pick another with --http <port>, or --http 0 for any free one.' : ''}`,
      );
    }
    const url = listener.url;
    if (gateway.server.shared !== undefined) {
      process.stderr.write(
        `candor gateway: shared state on Redis at ${redisWhere()} (instance ${gateway.server.shared.link.instanceId})\n`,
      );
    }
    close = async () => {
      await listener.close();
      await gateway.close();
    };
    // Signals are handled before the endpoint is announced: whoever reads it may stop us at once.
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    process.stdout.write(
      [
        `candor gateway: ${tools} tools from ${summary}`,
        `MCP endpoint: ${url}`,
        ...Object.keys(options.profiles ?? {}).map((name) => `Profile ${name}: ${url}/${name}`),
        `Policy: ${typeof options.policy === 'object' ? (options.policy.preset ?? 'default') : (options.policy ?? 'default')}; status: resource candor://gateway/status`,
        'Point a client at it:',
        `  ${printConfig('claude-code', { kind: 'http', url })}`,
        `  ${printConfig('gemini', { kind: 'http', url })}`,
        '',
      ].join('\n'),
    );
    return;
  }
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/**
 * Register `candor gateway`.
 *
 * @example
 * ```ts
 * registerGateway(new Command('candor'));
 * ```
 */
export function registerGateway(program: Command): Command {
  const gateway = program
    .command('gateway')
    .description('One MCP endpoint in front of many servers: honest annotations, policy on every call, pins, audit.')
    .argument('[targets...]', 'server URLs, a client config file (file.json or file.json#name), or -- a stdio command')
    .option('--config <file>', `a gateway config (default: ${GATEWAY_CONFIG_FILES.join(' or ')} in this folder)`)
    .option(
      '--http [address]',
      `Streamable HTTP on [host:]port (default ${GATEWAY_HTTP.host}:${GATEWAY_HTTP.port})`,
      parseHttpAddress,
    )
    .option(
      '--stdio',
      'serve over stdin/stdout (what clients that spawn servers use; default when stdin is not a terminal)',
    )
    .addOption(
      new Option('--policy <preset>', 'policy preset (rules go in the config file)').choices(
        POLICY_PRESETS as string[],
      ),
    )
    .option('--overrides <file>', "your declarations of third-party tools' effects (strongest source of hints)")
    .option('--lock <file>', 'pin upstream tools against this lockfile (candor pin --config … writes it)')
    .option('--audit <file>', 'append one JSON line per call to this file (- for stderr)')
    .option(
      '--results <kind=action,…>',
      'what to do with secrets and injected instructions in results: secrets|injection = annotate|redact|block|off (default: secrets redacted; injection annotated for open-world tools and untrusted servers)',
    )
    .option(
      '--hooks <key=value,…>',
      'outside services asked about every call, over the config\'s "hooks": beforeCall=URL, afterCall=URL, timeoutMs=N, failure=closed|open, allowRemoteHttp=true (https, or http to a loopback address)',
    )
    .option(
      '--trust <server>',
      'trust this upstream: its hints may relax prompts (repeatable)',
      (v: string, p: string[]) => [...p, v],
      [],
    )
    .option(
      '--sandbox',
      'run every stdio upstream not marked "sandbox": false in the default bubblewrap sandbox (no network, private HOME, env PATH only)',
    )
    .addOption(
      new Option(
        '--tools <mode>',
        "all: list every tool; search: sessions start with find_tools (and the config's alwaysList) and list what they find; code: search_tools, tool_api, run_script, save_script and the stored scripts (the model calls tools from a sandboxed script)",
      ).choices(['all', 'search', 'code']),
    )
    .addOption(
      new Option(
        '--prefix <mode>',
        'tool names: always server__tool (default), never the upstream names (refuses clashes), on-clash',
      ).choices(['always', 'never', 'on-clash']),
    )
    .option('--rules <file.cedar>', 'per-person rules in Cedar (schema: docs/cedar/candor.cedarschema)')
    .option(
      '--auth-groups-claim <claim>',
      "HTTP: the token claim with the person's groups, for --rules (default groups)",
    )
    .option(
      '--profile <name>',
      'stdio: serve this profile of the config; with --print-config: the entry for it (HTTP: /mcp/<name>)',
    )
    .option('--redis <url>', 'share sessions, limits and toggles with other gateway instances (default: $REDIS_URL)')
    .option('--auth-issuer <url>', 'HTTP: require OAuth access tokens from this authorization server (issuer)')
    .option('--auth-jwks <url>', "HTTP: the issuer's JWKS URL (default: found through the issuer's metadata)")
    .option(
      '--auth-audience <aud>',
      'HTTP: an accepted token audience (repeatable; default: the resource URL)',
      (v: string, p: string[]) => [...p, v],
      [],
    )
    .option('--auth-resource <url>', 'HTTP: the URL clients use for this gateway (default: http://<host>:<port>/mcp)')
    .option(
      '--auth-scopes <read,write,destructive>',
      'HTTP: rename the scopes derived from tool effects (default tools:read,tools:write,tools:destructive)',
    )
    .option(
      '--print-config <client>',
      `print the entry that puts this gateway in a client config, and exit: ${clientNamesText()}`,
      (value: string) => clientArg(value, '--print-config client'),
    )
    .addHelpText(
      'after',
      [
        '',
        'Every upstream is untrusted unless the config says "trust": "trusted" (or --trust NAME).',
        'Calls the policy asks about are confirmed through the client (elicitation); a client that',
        'cannot elicit gets an error saying what to configure. Upstream state: resource candor://gateway/status.',
        '',
        'Upstreams behind OAuth: "auth": "oauth" uses the sign-in of `candor auth login <config>#<name>`;',
        '"auth": "oauth-per-user" (HTTP with --auth-*) signs each person in on their first call and',
        'keeps their tokens sealed under $CANDOR_TOKEN_KEY (32 bytes: openssl rand -base64 32).',
        '',
        'Examples:',
        '  candor gateway --config candor.gateway.json --http 4000',
        '  candor gateway --config ~/.cursor/mcp.json --stdio --policy confirm-writes',
        '  candor gateway --config candor.gateway.json --hooks beforeCall=http://127.0.0.1:8787/before,failure=closed',
        '  candor gateway --print-config claude-code --config candor.gateway.json',
        '  candor gateway http://127.0.0.1:3000/mcp -- npx -y @modelcontextprotocol/server-memory',
      ].join('\n'),
    )
    .action(async (operands: string[], opts: GatewayCliOptions, command: Command) => {
      if (opts.http !== undefined && opts.stdio === true) {
        throw new CliError('Pass --http or --stdio, not both.', { exitCode: EXIT.usage });
      }
      await runGateway(operands, command, opts);
    });
  registerGatewayManage(gateway);
  return gateway;
}
