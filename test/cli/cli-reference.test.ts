/**
 * The CLI reference page is generated from the command definitions (the same ones
 * `--help` prints) and kept in step with them: every command module has its section,
 * and every option the page lists is one the built `candor` accepts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { cliReference, commandsOf } from '../../src/cli/reference.js';
import { ensureBuilt, REPO, runCli } from '../support/cli-harness.js';

beforeAll(() => ensureBuilt(), 120_000);

const page = () => readFileSync(path.join(REPO, 'docs', 'reference', 'cli.md'), 'utf8');

describe('the CLI reference', () => {
  it('is the page generated from the command definitions, up to date', async () => {
    const program = await buildProgram(['node', 'candor']);
    expect(page(), 'run npx tsx scripts/cli-reference-doc.ts').toBe(cliReference(program));
  });

  it('has a section for every command module', () => {
    const modules = readdirSync(path.join(REPO, 'src', 'cli', 'commands'))
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => file.replace(/\.ts$/, ''));
    for (const name of modules) expect(page()).toContain(`\n## candor ${name}\n`);
  });

  it("lists, for each command, exactly the options the built CLI's --help prints", async () => {
    const program = await buildProgram(['node', 'candor']);
    const sections = page().split('\n## ').slice(1);
    for (const { name } of commandsOf(program)) {
      const section = sections.find((s) => s.startsWith(`candor ${name}\n`))!;
      const documented = [...section.matchAll(/^\| `(-[^`]*)` \|/gm)].map((m) => m[1]!.replaceAll('\\|', '|'));
      const { code, stdout } = await runCli([...name.split(' '), '--help']);
      expect(code, name).toBe(0);
      const printed = [...stdout.matchAll(/^ {2}(-[^\s,]*(?:, -\S+)?(?: [<[][^>\]]*[>\]])?)/gm)]
        .map((m) => m[1]!)
        .filter((term) => term !== '-h, --help');
      expect(documented, name).toEqual(printed);
    }
  }, 120_000);
});
