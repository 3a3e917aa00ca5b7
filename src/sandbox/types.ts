/**
 * The shapes of the one bubblewrap sandbox (issue 21): what a plan says about the
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
