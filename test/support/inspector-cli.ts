/**
 * The official MCP Inspector CLI (`@modelcontextprotocol/inspector-cli`) as a
 * test peer. inspector-cli 1.0.3 reads its own package.json through a path it
 * checks relative to the working directory, so it runs from its build folder.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { BIN, REPO } from './cli-harness.js';

const INSPECTOR_CWD = path.join(REPO, 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build');

/**
 * Run `mcp-inspector-cli --cli …` to completion.
 *
 * @example
 * ```ts
 * const { code, stdout } = await inspector([url, '--transport', 'http', '--method', 'tools/list']);
 * ```
 */
export function inspector(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN('mcp-inspector-cli'), ['--cli', ...args], { cwd: INSPECTOR_CWD });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
