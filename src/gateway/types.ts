/**
 * `candor/gateway` options: upstream servers, trust, policy, overrides, pins,
 * approvals, command tools, rate limits and the audit log — one object, every
 * option a key (one options object, never positional overloads). The config file has the same shape.
 */

import type { CredentialsStore } from '../auth/client/credentials-store.js';
import type { TokenExchangeSettings } from '../auth/client/exchange-settings.js';
import type { AuthOptions } from '../auth/types.js';
import type { ScriptLimits } from '../host/code-mode/types.js';
import type { OverridesFile } from '../host/overrides.js';
import type {
  CommandToolConfig,
  PinChangeMode,
  PolicyConfig,
  PolicyPreset,
  ServerConfig,
  TaintMode,
} from '../host/types.js';
import type { SandboxSpec } from '../sandbox/types.js';
import type { RedisOption } from '../server/shared-state.js';
import type { RateLimit } from '../tool/types.js';
import type { ServerLogger } from '../util/logger.js';
import type { AuditEntry } from './audit-log.js';
import type { HookSettings } from './hooks/types.js';
import type { ProfileConfig } from './profiles.js';
import type { Quota } from './quotas/types.js';
import type { ResultGuardSettings, ServerResultSettings } from './results/types.js';
import type { PrefixMode } from './tool-names.js';

/** One upstream server: a host `ServerConfig` (stdio `command`, or `url`), untrusted unless `trust: "trusted"`. */
export type UpstreamConfig = Omit<ServerConfig, 'optional' | 'transport'> & {
  /** An SDK transport instead of command/url (tests, in-process servers). */
  transport?: ServerConfig['transport'];
  /**
   * stdio only: run the server in the bubblewrap sandbox. `true` is the
   * default sandbox (no network, nothing private readable, env PATH only); `false`
   * keeps it out of `sandbox: true` below.
   */
  sandbox?: SandboxSpec | boolean;
  /**
   * stdio in a sandbox: the variables set for the server instead of `env`, when `env`
   * is the caller's whole environment (a `-- command` named on the command line):
   * that stays outside the sandbox.
   */
  sandboxEnv?: Record<string, string>;
  /**
   * HTTP only, `"auth": "oauth-per-user"`: each person signs in to this server
   * themselves on their first call (a URL-mode elicitation) and their calls go with their own
   * token. The gateway's own sign-in (`candor auth login`) only lists the tools. Needs `auth`
   * (the gateway knows who calls) and a token key (`tokenKey`; `candor gateway` reads `CANDOR_TOKEN_KEY`).
   */
  perUser?: boolean;
  /**
   * HTTP only, `"auth": { "tokenExchange": … }`: each call goes with a token obtained by
   * exchanging the calling person's verified access token (RFC 8693) for one to this server,
   * kept per person until shortly before it expires. Needs `auth` (the gateway knows who calls).
   */
  tokenExchange?: TokenExchangeSettings;
  /**
   * What the gateway does with secrets and injected instructions in this server's results (over the
   * gateway's `results`), and per tool under `tools` (names or globs; the most specific wins).
   */
  results?: ServerResultSettings;
  /** Outside services asked about this server's calls and results (over the gateway's `hooks`). */
  hooks?: HookSettings;
};

/** Everything `createGateway` accepts. */
export interface GatewayOptions {
  /** Upstream servers by name; the name prefixes their tools and prompts (`name__tool`). */
  servers: Record<string, UpstreamConfig>;
  /** What the gateway does with secrets and injected instructions in results; unset kinds follow each tool's hints. */
  results?: ResultGuardSettings;
  /** Outside services asked before each call goes upstream and before its result goes back. */
  hooks?: HookSettings;
  /** Where upstream OAuth sign-ins are read and refreshed (default the user's credentials file). */
  credentials?: CredentialsStore;
  /** Policy preset (`default`, `confirm-writes`, `plan`, `yolo`) or preset + rules. Default `default`. */
  policy?: PolicyConfig | PolicyPreset;
  /** The config file these options came from (named in messages such as the quarantine's review command). */
  configFile?: string;
  /** Run every stdio upstream not marked `"sandbox": false` in the default sandbox (`--sandbox`). */
  sandbox?: boolean;
  /** The user's declarations of third-party tools' effects (path or content): the strongest source of hints. */
  overrides?: string | OverridesFile;
  /** Pin upstream tools: a lockfile, and what to do with changed (default `block`) and new (default `ask`) tools. */
  lock?: { file: string; onChange?: PinChangeMode; onNew?: PinChangeMode | 'allow' };
  /** Where allow-always answers are kept across restarts (default: next to the lockfile, else in memory). */
  approvalsFile?: string;
  /** Shell-running tools (namespaced names or globs) whose command argument goes through the command gate. */
  commandTools?: Record<string, CommandToolConfig>;
  /** Rate limits per upstream server (all its tools share one) and per namespaced tool. */
  rateLimits?: { servers?: Record<string, RateLimit>; tools?: Record<string, RateLimit> };
  /**
   * Quotas per person, tool glob, server and effect class (e.g. 20 destructive calls per
   * hour for each person), counted on the shared store when there is one. A refused call
   * gets a tool error that says how long to wait.
   */
  quotas?: Quota[];
  /**
   * A file the quotas' counts are kept in, so a restart does not reset them (without
   * Redis; with Redis the counts live there). Default: in memory, reset on restart.
   */
  quotaCounts?: string;
  /**
   * Taint: after a result from an open-world tool or an untrusted server enters a
   * conversation, its destructive or sending calls `ask` a person (default), are refused
   * (`deny`), or taint is not looked at (`off`, the default under the `yolo` preset).
   * A profile may set its own.
   */
  taint?: TaintMode;
  /** Audit log: a file path (JSON lines, appended), `-` for stderr, or a function. */
  audit?: string | ((entry: AuditEntry) => void);
  /** Per-call timeout for upstream calls, in milliseconds (default 60 000). */
  timeoutMs?: number;
  /** How long a person may take to answer a confirmation before it is denied (default 5 minutes). */
  confirmTimeoutMs?: number;
  /** Backoff for upstreams that fail to start or die: first and longest delay (default 1 s and 60 s). */
  reconnect?: { initialDelayMs?: number; maxDelayMs?: number };
  /**
   * Make the gateway's HTTP endpoint an OAuth 2.1 resource server (as `createServer({ auth })`):
   * downstream clients need a token, and tools are listed and callable by scope.
   */
  auth?: AuthOptions;
  /**
   * The key that seals each person's upstream tokens (AES-256-GCM) for `perUser` servers:
   * 32 bytes, base64 or hex, or a passphrase of 32+ characters (`candor gateway` reads `CANDOR_TOKEN_KEY`).
   * Every instance sharing one Redis needs the same key.
   */
  tokenKey?: string;
  /** tools/call to stdio upstreams on the lean path (default true); see `createHost({ leanCalls })`. */
  leanCalls?: boolean;
  /**
   * Shared state for several gateway instances (as `createServer({ redis })`):
   * sessions, rate-limit budgets (per tool and per server), toggles. Default:
   * `REDIS_URL` when set; `false` keeps it in memory.
   */
  redis?: RedisOption;
  /**
   * `all` (default): every tool is listed. `search`: a session starts with the
   * `alwaysList` tools and `find_tools`; the tools it finds join that session's list.
   * `code`: only `search_tools`, `tool_api` and `run_script`; the model calls tools from a
   * sandboxed script (docs/gateway/code-mode.md).
   */
  toolList?: 'all' | 'search' | 'code';
  /** Code mode: the limits a script runs under (memory, CPU, deadline, output, calls); a profile may set its own. */
  codeMode?: ScriptLimits;
  /**
   * Code mode: the file of stored scripts (docs/gateway/code-mode.md). Default
   * `candor.scripts.json` next to `configFile`; without either, scripts saved are kept
   * in memory until the gateway stops.
   */
  scripts?: string;
  /** Search mode: globs of namespaced tool names every session lists from the start. */
  alwaysList?: string[];
  /**
   * Tool names downstream: `always` (default) `server__tool`; `never` the upstream's own
   * names (refuses to start when two servers share one); `on-clash` prefixes only shared names.
   * Policy rules, overrides, pins and rate limits keep using `server__tool`.
   */
  prefix?: PrefixMode;
  /**
   * Named slices of the gateway: some servers, tool globs, read-only only,
   * all or search. Over HTTP each is served at `/mcp/<name>`; over stdio `--profile <name>`.
   */
  profiles?: Record<string, ProfileConfig>;
  /**
   * Per-person rules: a Cedar file validated against docs/cedar/candor.cedarschema
   * (actions `call` and `call_unconfirmed`; see src/gateway/rules.ts).
   */
  rules?: string;
  /** The token claim holding the person's groups for the rules and profiles (default `groups`). */
  groupsClaim?: string;
  /** The token claim holding the person's department for the rules and profiles (default `department`). */
  departmentClaim?: string;
  /** The gateway's own `serverInfo`. */
  name?: string;
  version?: string;
  /** Where the gateway logs (stderr by default; never stdout). */
  logger?: ServerLogger;
}
