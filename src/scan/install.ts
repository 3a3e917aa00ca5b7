/**
 * Install an npm package for a scan: into a throwaway folder under the user's
 * cache, with npm itself in the sandbox (the filesystem read-only except that
 * folder and npm's cache, the network only to the registry), lifecycle scripts
 * off unless asked. The resolved version and the tarball's integrity come from
 * the lock file npm writes.
 */

import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import path from 'node:path';
import { CandorError } from '../errors.js';
import { prepareServerSandbox } from '../sandbox/server-sandbox.js';
import type { InstalledPackage } from './types.js';

/** What an install needs. */
export interface InstallOptions {
  /** An npm package spec: `name` or `name@version`. */
  spec: string;
  /** The user's cache folder (`~/.cache/candor`); installs go under `scan/` inside. */
  cacheDir: string;
  /** The registry URL (npm's `registry` setting). */
  registry: string;
  /** npm's `cafile` setting: the certificate authorities the registry's TLS chain ends in (a proxy's own CA). */
  cafile?: string;
  /** Run the package's install scripts (off by default: a scan must not run untrusted code outside the sandbox of observe). */
  allowScripts?: boolean;
  /** Progress lines. */
  progress?: (line: string) => void;
}

/** An install npm refused: its own message is the error's. */
export class InstallError extends CandorError {
  override readonly name = 'InstallError';
  constructor(message: string) {
    super(message, { code: 'install_failed' });
  }
}

/** The package name of a spec (`@scope/name@1.2.3` → `@scope/name`). */
export function specName(spec: string): string {
  const at = spec.indexOf('@', spec.startsWith('@') ? 1 : 0);
  return at === -1 ? spec : spec.slice(0, at);
}

function run(command: string, args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

/** npm's own words: its `npm error` lines, else the tail of what it printed. */
function npmMessage(out: string): string {
  const lines = out.split('\n').filter((line) => line.trim() !== '');
  const errors = lines.filter(
    (line) => /^npm (error|ERR!)/.test(line) && !/A complete log|npm (error|ERR!) *$/.test(line),
  );
  return (errors.length > 0 ? errors : lines.slice(-5)).join('\n');
}

/** The `bin` entry to start: the only one, or the one named like the package. */
function pickBin(manifest: { name: string; bin?: string | Record<string, string> }): string | undefined {
  if (typeof manifest.bin === 'string') return manifest.bin;
  const entries = Object.entries(manifest.bin ?? {});
  if (entries.length === 1) return entries[0]![1];
  const short = manifest.name.split('/').pop()!;
  return entries.find(([name]) => name === short || name === manifest.name)?.[1] ?? entries[0]?.[1];
}

/**
 * Install one package in the sandbox and say how to start it.
 *
 * @example
 * ```ts
 * const pkg = await installPackage({ spec: '@modelcontextprotocol/server-memory@2025.11.25', cacheDir, registry });
 * pkg.version; // '2025.11.25'
 * ```
 */
export async function installPackage(options: InstallOptions): Promise<InstalledPackage> {
  const root = path.join(options.cacheDir, 'scan');
  const npmCache = path.join(options.cacheDir, 'npm-cache');
  await mkdir(root, { recursive: true });
  await mkdir(npmCache, { recursive: true });
  const prefix = await mkdtemp(path.join(root, `${specName(options.spec).replace(/[^A-Za-z0-9.-]/g, '-')}-`));
  const registry = new URL(options.registry);
  const port = registry.port || (registry.protocol === 'http:' ? '80' : '443');
  const npmArgs = [
    'install',
    '--prefix',
    prefix,
    '--no-audit',
    '--no-fund',
    '--no-update-notifier',
    '--omit=dev',
    ...(options.allowScripts ? [] : ['--ignore-scripts']),
    options.spec,
  ];
  const sandbox = await prepareServerSandbox({
    name: 'npm-install',
    command: 'npm',
    args: npmArgs,
    cwd: prefix,
    env: {
      npm_config_cache: npmCache,
      npm_config_registry: registry.href,
      ...(options.cafile ? { npm_config_cafile: options.cafile } : {}),
    },
    // The trust settings pass in: without them npm rejects a registry reached through a TLS-inspecting proxy.
    spec: {
      network: [`${registry.hostname}:${port}`],
      read: options.cafile ? [options.cafile] : [],
      write: [prefix, npmCache],
      env: ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE'],
    },
  });
  options.progress?.(
    `installing ${options.spec} (registry ${registry.host}, scripts ${options.allowScripts ? 'on' : 'off'})`,
  );
  let result: { code: number; out: string };
  try {
    result = await run(sandbox.command, sandbox.args, sandbox.env);
  } finally {
    await sandbox.dispose();
  }
  if (result.code !== 0) throw new InstallError(npmMessage(result.out));
  const name = specName(options.spec);
  const folder = path.join(prefix, 'node_modules', name);
  const manifest = JSON.parse(await readFile(path.join(folder, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    bin?: string | Record<string, string>;
  };
  const lock = JSON.parse(await readFile(path.join(prefix, 'package-lock.json'), 'utf8').catch(() => '{}')) as {
    packages?: Record<string, { integrity?: string }>;
  };
  const bin = pickBin(manifest);
  if (bin === undefined)
    throw new InstallError(`${name}@${manifest.version} has no "bin" in its package.json: nothing to start.`);
  const integrity = lock.packages?.[`node_modules/${name}`]?.integrity;
  return {
    name,
    version: manifest.version,
    ...(integrity ? { integrity } : {}),
    prefix,
    command: process.execPath,
    args: [path.join(folder, bin)],
  };
}
