/**
 * Plain data shared by `candor setup`: how a client keeps its MCP servers, and what
 * setup remembers so a second run updates and `--undo` restores.
 */

/** A client's settings scope: the person's own, or one project's (checked in with it). */
export type Scope = 'user' | 'project';

/** Where the paths a client uses come from (the CLI reads them from the environment). */
export interface Place {
  home: string;
  /** The project folder (project scope). */
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
}

/** How the gateway is started from the client. */
export type GatewayEntry =
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string> }
  | { kind: 'http'; url: string };

/** One client: where its file is and what an entry looks like. */
export interface ClientSpec {
  id: string;
  /** The product's name, for messages. */
  title: string;
  /** The config file of each scope the client has. */
  files: Partial<Record<Scope, (place: Place) => string>>;
  /** The JSON path of the server map inside the file. */
  mapPath: readonly string[];
  /** The file's syntax: JSON with comments kept (VS Code, Gemini) or plain JSON. */
  comments: boolean;
  /** A client entry as a gateway upstream, or why it cannot be one. */
  readEntry(raw: Record<string, unknown>): ServerEntry | string;
  /** The client's entry that starts (or reaches) the gateway; a string is why it cannot. */
  gatewayEntry(entry: GatewayEntry): Record<string, unknown> | string;
}

/** What setup remembers about one client file it changed. */
export interface SetupRecord {
  client: string;
  scope: Scope;
  clientFile: string;
  gatewayConfig: string;
  lockFile: string;
  /** Each file setup wrote, with the copy of what was there before (null: it did not exist). */
  backups: Array<{ file: string; backup: string | null }>;
  /** Servers that did not start when setup last ran, with why. */
  failed: Record<string, string>;
}

/** The name of the one entry setup leaves in a client's file. */
export const GATEWAY_ENTRY_NAME = 'candor';
