import type { AuthSetting } from '../auth/client/settings.js';

/**
 * What the CLI can point at: a server to start over stdio, a Streamable HTTP (or legacy
 * SSE) URL, a local module that exports tools, or an entry of a client config file.
 */

interface TargetBase {
  /** A short, human label: the config entry name, the URL, the command or the module path. */
  label: string;
  /** Where the target came from when it was read from a client config file. */
  source?: { file: string; name: string };
  /**
   * The protocol era its config entry asks for (`"protocol": "2025-11-25" | "2026-07-28" |
   * "auto"`); a command's `--protocol` wins over it.
   */
  protocol?: 'legacy' | 'modern' | 'auto';
}

/** A server started as a child process and spoken to over stdin/stdout. */
export interface StdioTarget extends TargetBase {
  kind: 'stdio';
  command: string;
  args: string[];
  /**
   * Environment variables, laid over the SDK's safe default environment (HOME,
   * LOGNAME, PATH, SHELL, TERM, USER), as MCP clients do. A `--` command
   * target carries the caller's whole environment here (see command-env.ts);
   * a config file entry carries its own `env`.
   */
  env?: Record<string, string>;
  /**
   * A `--` command target: only what `--env` / `--env-file` set, without the caller's
   * environment that `env` also holds. A sandbox passes in only these.
   */
  ownEnv?: Record<string, string>;
  cwd?: string;
}

/** A server reached over HTTP: Streamable HTTP (default) or the legacy HTTP+SSE transport. */
export interface HttpTarget extends TargetBase {
  kind: 'http';
  url: string;
  transport: 'streamable-http' | 'sse';
  headers?: Record<string, string>;
  /** The entry's `"auth"`: how to sign in when the server asks for OAuth. */
  auth?: AuthSetting;
}

/** A local JavaScript/TypeScript module exporting a ToolRegistry, an array of tools or a server. */
export interface ModuleTarget extends TargetBase {
  kind: 'module';
  /** Absolute path of the module file. */
  path: string;
}

/**
 * A config entry that cannot be turned into a target (no command or url, an unresolved
 * `${input:…}` variable, …). Kept so that it is reported as failed, never skipped silently.
 */
export interface InvalidTarget extends TargetBase {
  kind: 'invalid';
  reason: string;
}

export type Target = StdioTarget | HttpTarget | ModuleTarget | InvalidTarget;
