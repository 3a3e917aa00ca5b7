/**
 * VS Code's `envFile`: a file of `NAME=value` lines loaded into a server's environment.
 * Setup reads it once so the gateway starts the server with the same variables (their
 * values go into the gateway entry's env, as every env value does). Read line by line,
 * in time linear in the file's size.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CandorError } from '../errors.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/**
 * The variables of an env file: `NAME=value`, `export NAME=value`, values in single or
 * double quotes, `#` comments and blank lines.
 *
 * @example
 * ```ts
 * parseEnvFile('# keys\nAPI_KEY="abc"\nexport DEBUG=1\n'); // { API_KEY: 'abc', DEBUG: '1' }
 * ```
 */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const body = line.startsWith('export ') ? line.slice(7).trimStart() : line;
    const eq = body.indexOf('=');
    if (eq <= 0) continue;
    const name = body.slice(0, eq).trim();
    if (!NAME.test(name)) continue;
    let value = body.slice(eq + 1).trim();
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.length >= 2 && value.endsWith(quote)) value = value.slice(1, -1);
    else {
      const comment = value.indexOf(' #');
      if (comment >= 0) value = value.slice(0, comment).trimEnd();
    }
    out[name] = value;
  }
  return out;
}

/**
 * Read an entry's env file as VS Code would: `${workspaceFolder}` is the project,
 * `${userHome}` the home folder, a relative path is taken from the project.
 */
export function readEnvFile(name: string, project: string, clientFile: string, home?: string): Record<string, string> {
  const expanded = name.replaceAll(`\${workspaceFolder}`, project).replaceAll(`\${userHome}`, home ?? project);
  const file = path.resolve(project, expanded);
  try {
    return parseEnvFile(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new CandorError(
      `${clientFile}: cannot read the envFile ${file}: ${(error as Error).message}. The file was left as it is.`,
      { code: 'invalid_server_config' },
    );
  }
}
