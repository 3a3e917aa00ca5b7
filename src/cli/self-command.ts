/**
 * How a client config should start candor, so the entry keeps working after this
 * command ends: `candor` when the program on PATH is this installation (a global
 * install), `npx -y candor@<exact version>` when it runs through npx (npx's cache
 * folder may be emptied at any time) or from a project's node_modules, and the
 * absolute path of node and the CLI only for a checkout of the sources, which the
 * person is told about.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageInfo } from './package-root.js';

/** The command a client config names, and how it was chosen. */
export interface SelfCommand {
  command: string;
  args: string[];
  how: 'path' | 'npx' | 'checkout';
  /** A line for the person when the choice ties the entry to something they should know. */
  note?: string;
}

/** What the choice depends on (the CLI passes its own; tests pass theirs). */
export interface SelfFacts {
  /** The package's root folder and version. */
  root: string;
  version: string;
  /** The CLI's entry file (package.json `bin`). */
  main: string;
  /** `process.execPath`. */
  node: string;
  /** $PATH. */
  pathEnv: string;
  platform: NodeJS.Platform;
}

function real(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

/** Whether the `candor` first found on PATH is this very CLI. */
function onPath(facts: SelfFacts): boolean {
  const main = real(facts.main);
  const names = facts.platform === 'win32' ? ['candor.cmd', 'candor.exe', 'candor'] : ['candor'];
  for (const dir of facts.pathEnv.split(path.delimiter)) {
    if (dir === '') continue;
    for (const name of names) {
      const file = path.join(dir, name);
      if (!existsSync(file)) continue;
      // The first candor on PATH is the one the client starts: it is ours, or the entry would start another.
      return real(file) === main;
    }
  }
  return false;
}

/** A checkout of the sources: a git work tree, not an installed package. */
function isCheckout(root: string): boolean {
  if (root.split(path.sep).includes('node_modules')) return false;
  try {
    const stat = statSync(path.join(root, '.git'));
    return stat.isDirectory() || stat.isFile();
  } catch {
    return false;
  }
}

/**
 * The command that starts this candor from a client config.
 *
 * @example
 * ```ts
 * selfCommand({ root, version: '0.1.0', main, node: process.execPath, pathEnv: process.env.PATH ?? '', platform: process.platform });
 * // { command: 'npx', args: ['-y', 'candor@0.1.0'], how: 'npx' }
 * ```
 */
export function selfCommand(facts: SelfFacts): SelfCommand {
  if (onPath(facts)) return { command: 'candor', args: [], how: 'path' };
  if (isCheckout(facts.root))
    return {
      command: facts.node,
      args: [facts.main],
      how: 'checkout',
      note: `The entry starts candor from this checkout (${facts.root}) with ${facts.node}: it breaks if either moves. Installed candor (npm install -g candor) gives a stable "candor" entry: run this again after installing.`,
    };
  return {
    command: 'npx',
    args: ['-y', `candor@${facts.version}`],
    how: 'npx',
    note: `The entry starts candor with npx -y candor@${facts.version} (this exact version, wherever npm keeps it).`,
  };
}

/**
 * {@link selfCommand} for this process.
 *
 * @example
 * ```ts
 * const { command, args } = selfCommandHere();
 * ```
 */
export function selfCommandHere(): SelfCommand {
  const { root, version } = packageInfo();
  return selfCommand({
    root,
    version,
    main: fileURLToPath(new URL('./main.js', import.meta.url)),
    node: process.execPath,
    pathEnv: process.env.PATH ?? '',
    platform: process.platform,
  });
}
