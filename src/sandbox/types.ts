/**
 * The shapes of the one bubblewrap sandbox: what a plan says about the
 * filesystem, the network, the environment and the program, before it becomes
 * bwrap's argument list. A leaf file: it imports nothing from its siblings.
 */

/**
 * How a sandboxed process reaches the network: `loopback` is a network namespace of
 * its own with only a loopback interface (nothing leaves it); `host` shares the host's.
 */
export type SandboxNetwork = 'loopback' | 'host';

/** One sandboxed program, as data. Paths are absolute. */
export interface SandboxPlan {
  network: SandboxNetwork;
  /** Folders covered by an empty tmpfs (the real HOME, /tmp): invisible inside. Applied before the binds. */
  hide?: readonly string[];
  /** Visible read-only at the same path (over a hidden folder too). */
  read?: readonly string[];
  /** Visible and writable at the same path. */
  write?: readonly string[];
  /** Read-only files or folders shown at another path: [source outside, path inside] (a generated /etc/hosts). */
  mounts?: ReadonlyArray<readonly [string, string]>;
  /**
   * Capabilities kept in the sandbox's own user namespace (every other one is dropped;
   * only CAP_NET_BIND_SERVICE is ever asked: ports < 1024 of the sandbox's own loopback).
   */
  keepCapabilities?: readonly string[];
  /** Working directory inside the sandbox. */
  chdir?: string;
  /** Start from an empty environment (then only `env` is set). */
  clearEnv?: boolean;
  /** Environment variables set inside the sandbox. */
  env?: Readonly<Record<string, string>>;
  /** The program run inside, and its arguments. */
  command: string;
  args: readonly string[];
}

/**
 * A sandbox as a person configures it for an untrusted stdio server:
 * `network` false (loopback only), true (the host's) or "host:port" destinations;
 * absolute paths it may read and write; names of environment variables it gets.
 */
export interface SandboxSpec {
  network: boolean | string[];
  read: string[];
  write: string[];
  env: string[];
}
