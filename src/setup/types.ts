/**
 * Plain data shared by `candor setup`: how a client keeps its MCP servers, and what
 * setup remembers so a second run updates and `--undo` restores.
 */

import type { ClientName } from '../gateway/client-names.js';

/**
 * A client's settings scope: the person's own (user), one project's checked in with it
 * (project), or one project's kept in the person's own file (local: Claude Code's
 * default for `claude mcp add`).
 */
export type Scope = 'user' | 'project' | 'local';

/** Where the paths a client uses come from (the CLI reads them from the environment). */
export interface Place {
  home: string;
  /** The folder setup runs in (project and local scopes). */
  cwd: string;
  platform: NodeJS.Platform;
  /** `%APPDATA%` on Windows. */
  appData?: string;
  /** `$XDG_CONFIG_HOME`, else ~/.config. */
  configHome?: string;
}

/** A server entry read from a client, in the shape a candor gateway config takes. */
export interface ServerEntry {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  type?: string;
  headers?: Record<string, string>;
  /** The client trusted the server (Gemini CLI's `trust`): the gateway trusts it too. */
  trust?: 'trusted';
  /** The client's per-call timeout (Gemini CLI's `timeout`), in milliseconds. */
  timeoutMs?: number;
  /**
   * Tools the client kept from the model (Gemini CLI's `excludeTools`, `includeTools`):
   * setup turns them into deny rules of the gateway's policy; never written as an entry key.
   */
  toolFilter?: { exclude?: string[]; include?: string[] };
  /** A file of `NAME=value` lines the client loads into the server's env (VS Code's `envFile`); setup reads it. */
  envFile?: string;
}

/** How the gateway is started from the client. */
export type GatewayEntry =
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string> }
  | { kind: 'http'; url: string };

/** Where one scope of a client keeps its servers. */
export interface ScopeFile {
  /** The config file. */
  file: (place: Place) => string;
  /**
   * For settings kept per project inside one file (Claude Code's local scope): the key
   * holding them, and the folder the client knows the project by (from where it runs).
   */
  perProject?: { key: string; folder: (cwd: string) => string };
}

/** One scope's servers found: the file, the JSON path of the server map, and the project it belongs to. */
export interface ScopeLocation {
  file: string;
  mapPath: string[];
  /** The project folder (project and local scopes). */
  project?: string;
}

/** One client: where its file is and what an entry looks like. */
export interface ClientSpec {
  id: ClientName;
  /** The product's name, for messages. */
  title: string;
  /** Where each scope the client has keeps its servers. */
  files: Partial<Record<Scope, ScopeFile>>;
  /** The JSON path of the server map inside the file (inside the project's settings for a per-project scope). */
  mapPath: readonly string[];
  /** The file's syntax: JSON with comments kept (VS Code, Gemini) or plain JSON. */
  comments: boolean;
  /** A client entry as a gateway upstream, or why it cannot be one. */
  readEntry(raw: Record<string, unknown>): ServerEntry | string;
  /** The client's entry that starts (or reaches) the gateway; a string is why it cannot. */
  gatewayEntry(entry: GatewayEntry): Record<string, unknown> | string;
  /**
   * A gateway upstream as this client's entry (undo moves servers added behind the
   * gateway since setup into the client), or why the client cannot take it.
   */
  writeEntry(upstream: ServerEntry): Record<string, unknown> | string;
}

/** One server setup took out of a client's file: the entry as it was, and the upstream written for it. */
export interface MovedServer {
  /** The client's entry, every key as the client wrote it (undo puts this back). */
  entry: Record<string, unknown>;
  /** What setup wrote to the gateway config for it (`${NAME}` references in place of values). */
  upstream: Record<string, unknown>;
}

/** What setup remembers about one client file it changed. */
export interface SetupRecord {
  client: string;
  scope: Scope;
  clientFile: string;
  /** The JSON path of the server map setup replaced (absent in records of older versions: `mcpServers`-style top level). */
  mapPath?: string[];
  gatewayConfig: string;
  lockFile: string;
  /**
   * Each file setup wrote, with the copy of what was there before (null: it did not
   * exist) and the SHA-256 of what setup last wrote, to tell whether anyone changed it since.
   */
  backups: Array<{
    file: string;
    backup: string | null;
    written?: string;
    /** Someone changed the file between two setup runs: the backup is no longer the file minus setup's edit. */
    changedBetween?: boolean;
  }>;
  /** Servers that did not start when setup last ran, with why. */
  failed: Record<string, string>;
}

/** The name of the one entry setup leaves in a client's file. */
export const GATEWAY_ENTRY_NAME = 'candor';
