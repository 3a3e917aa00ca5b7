/**
 * Finding and reading the lint configuration: `candor.config.json` (its `lint` key), or
 * the `candor.lint` key of package.json, in the working directory or the nearest parent.
 *
 * ```json
 * { "lint": {
 *     "profile": "recommended",
 *     "rules": { "param-description-missing": "off", "name-says-overwrite": "warning" },
 *     "ignores": [{ "tools": ["legacy_*"], "rules": ["title-missing"], "reason": "kept for old clients" }]
 * } }
 * ```
 */

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CandorError } from '../errors.js';
import { isRecord } from '../util/is-record.js';
import { validateLintConfig } from './lint.js';
import type { LintConfig } from './types.js';

export const CONFIG_FILE = 'candor.config.json';

/** A loaded configuration and the file it came from (undefined: none found, defaults apply). */
export interface LoadedLintConfig {
  config: LintConfig;
  file?: string;
}

/**
 * Load the lint configuration: `file` when given, otherwise the nearest `candor.config.json`
 * or package.json with a `candor` key, from `cwd` upwards. Validates it (clear errors).
 *
 * @example
 * ```ts
 * const { config, file } = await loadLintConfig({ cwd: process.cwd() });
 * lint(tools, config);
 * ```
 */
export async function loadLintConfig(options: { cwd?: string; file?: string } = {}): Promise<LoadedLintConfig> {
  const cwd = options.cwd ?? process.cwd();
  if (options.file !== undefined) {
    const file = path.resolve(cwd, options.file);
    const section = await readSection(file, true);
    return { config: section ?? {}, file };
  }
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    for (const name of [CONFIG_FILE, 'package.json']) {
      const file = path.join(dir, name);
      if (!existsSync(file)) continue;
      const section = await readSection(file, false);
      if (section) return { config: section, file };
    }
    if (path.dirname(dir) === dir) return { config: {} };
  }
}

async function readSection(file: string, required: boolean): Promise<LintConfig | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new CandorError(`Cannot read lint config ${file}: ${(error as Error).message}.`, {
      code: 'invalid_lint_config',
      cause: error,
    });
  }
  const root = path.basename(file) === 'package.json' ? (isRecord(parsed) ? parsed.candor : undefined) : parsed;
  if (root === undefined) {
    if (required) throw new CandorError(`${file} has no "candor" key.`, { code: 'invalid_lint_config' });
    return undefined;
  }
  if (!isRecord(root))
    throw new CandorError(`${file}: the candor configuration must be an object.`, { code: 'invalid_lint_config' });
  const section = root.lint;
  if (section === undefined) return required || path.basename(file) !== 'package.json' ? {} : undefined;
  if (!isRecord(section)) throw new CandorError(`${file}: "lint" must be an object.`, { code: 'invalid_lint_config' });
  const unknown = Object.keys(section).filter((k) => !['profile', 'rules', 'ignores'].includes(k));
  if (unknown.length > 0) {
    throw new CandorError(
      `${file}: unknown key${unknown.length === 1 ? '' : 's'} in "lint": ${unknown.join(', ')} (expected profile, rules, ignores).`,
      {
        code: 'invalid_lint_config',
      },
    );
  }
  try {
    validateLintConfig(section as LintConfig);
  } catch (error) {
    throw new CandorError(`${file}: ${(error as Error).message}`, { code: 'invalid_lint_config', cause: error });
  }
  return section as LintConfig;
}
