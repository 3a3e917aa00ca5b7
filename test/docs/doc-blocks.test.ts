/**
 * The code blocks of the docs work in the program they name: every ts/js block
 * type-checks against the built package (as a reader's file importing `candor`), and
 * every shell line that runs `candor` names a command and options the CLI has.
 * A block that is only a piece of a file says so in its fence (```ts fragment); those
 * are few, and counted.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { commandsOf } from '../../src/cli/reference.js';
import { ensureBuilt, REPO } from '../support/cli-harness.js';

beforeAll(() => ensureBuilt(), 120_000);

/** Fragments allowed in all the docs: more means a page shows pieces a reader cannot run. */
const MAX_FRAGMENTS = 4;

interface Block {
  page: string;
  line: number;
  lang: string;
  attrs: string[];
  code: string;
}

/** Pages a reader sees: the README and docs/, without VitePress's own folder and the generated API pages. */
function pages(): string[] {
  const docs = readdirSync(path.join(REPO, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .filter((file) => !file.startsWith('.vitepress') && !file.startsWith(path.join('reference', 'api')))
    .filter((file) => file !== 'perf-issue-24.md')
    .map((file) => path.join('docs', file));
  return ['README.md', ...docs.sort()];
}

function blocksOf(page: string): Block[] {
  const lines = readFileSync(path.join(REPO, page), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w+)\s*(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i]!.startsWith('```'); i++) body.push(lines[i]!);
    blocks.push({
      page,
      line: start + 1,
      lang: open[1]!,
      attrs: open[2]!.split(/\s+/).filter(Boolean),
      code: body.join('\n'),
    });
  }
  return blocks;
}

const allBlocks = () => pages().flatMap(blocksOf);
const isScript = (block: Block) => ['ts', 'typescript', 'js', 'javascript', 'mjs'].includes(block.lang);
const isShell = (block: Block) => ['sh', 'bash', 'shell', 'console'].includes(block.lang);

/** The reader's own things the snippets use without defining: their tools, their server, their prompt. */
const PRELUDE = `
declare const tools: import('candor').ToolLike[];
declare const readFile: import('candor').ToolLike;
declare const writeFile: import('candor').ToolLike;
declare const deleteFile: import('candor').ToolLike;
declare const server: import('candor').CandorServer;
declare const html: string;
declare const signal: AbortSignal;
declare const modelToolCalls: Parameters<import('candor/host').Host['run']>[0];
declare function ask(question: string): Promise<boolean>;
declare function runBuild(options: { signal: AbortSignal; asTask: boolean }): Promise<string>;
declare function runDeploy(service: string, signal: AbortSignal): Promise<string>;
`;

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  strict: true,
  skipLibCheck: true,
  esModuleInterop: true,
  types: ['node'],
  noEmit: true,
};

/** Type-check snippets as files of the reader's project (beside the package, so `candor` resolves to its exports). */
function typeCheck(snippets: ReadonlyArray<{ name: string; code: string }>): Map<string, string[]> {
  const files = new Map<string, string>([[path.join(REPO, 'docs', '.doc-prelude.d.ts'), PRELUDE]]);
  const byFile = new Map<string, string>();
  for (const { name, code } of snippets) {
    const file = path.join(REPO, 'docs', `.doc-block-${byFile.size}.ts`);
    files.set(file, `${code}\nexport {};\n`);
    byFile.set(file, name);
  }
  const host = ts.createCompilerHost(OPTIONS);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (file) => files.has(file) || fileExists(file);
  host.readFile = (file) => files.get(file) ?? readFile(file);
  host.getSourceFile = (file, language, ...rest) => {
    const text = files.get(file);
    return text === undefined ? getSourceFile(file, language, ...rest) : ts.createSourceFile(file, text, language);
  };
  const program = ts.createProgram([...files.keys()], OPTIONS, host);
  const problems = new Map<string, string[]>();
  for (const [file, name] of byFile) {
    const diagnostics = [
      ...program.getSyntacticDiagnostics(program.getSourceFile(file)),
      ...program.getSemanticDiagnostics(program.getSourceFile(file)),
    ];
    problems.set(
      name,
      diagnostics.map((d) => {
        const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
        return `line ${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      }),
    );
  }
  return problems;
}

/** Shell words of one command line, quotes removed (enough for documentation lines). */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/** Each `candor …` invocation in a shell block, as its words after `candor`. */
function candorCalls(code: string): string[][] {
  const joined = code.replace(/\\\n\s*/g, ' ');
  const calls: string[][] = [];
  for (const raw of joined.split('\n')) {
    const line = raw.replace(/^\$ /, '').replace(/(^|\s)#.*$/, '');
    for (const part of line.split(/&&|\|\||[;|]|\$\(/)) {
      const list = words(part.trim());
      while (list.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(list[0]!)) list.shift();
      if (list[0] === 'npx') list.shift();
      if (list[0] === 'candor') calls.push(list.slice(1));
    }
  }
  return calls;
}

/** Commands and options the shell blocks use that the CLI does not have. */
function cliProblems(blocks: readonly Block[], program: Command): { problems: string[]; seen: number } {
  const commands = new Map(commandsOf(program).map(({ name, command }) => [name, command]));
  const optionWords = (command: Command) =>
    command.options.flatMap((o) => [o.long, o.short]).filter((w) => w !== undefined);
  const global = optionWords(program);
  const problems: string[] = [];
  let seen = 0;
  for (const block of blocks) {
    for (const call of candorCalls(block.code)) {
      seen++;
      const where = `${block.page}:${block.line}: candor ${call.join(' ')}`;
      const end = call.indexOf('--');
      const args = end === -1 ? call : call.slice(0, end);
      const positional = args.filter((w) => !w.startsWith('-'));
      if (positional.length === 0) continue;
      const top = positional[0]!;
      if (!commands.has(top)) {
        problems.push(`${where}: no command ${top}`);
        continue;
      }
      const name = commands.has(`${top} ${positional[1]}`) ? `${top} ${positional[1]}` : top;
      const known = new Set([...global, '--help', '-h', ...optionWords(commands.get(name)!)]);
      for (const word of args.filter((w) => w.startsWith('-'))) {
        if (!known.has(word.split('=')[0]!)) problems.push(`${where}: ${name} has no option ${word}`);
      }
    }
  }
  return { problems, seen };
}

describe('code blocks in the docs', () => {
  it('type-check as a reader would write them, unless marked as fragments', () => {
    const scripts = allBlocks().filter(isScript);
    const checked = scripts.filter((b) => !b.attrs.includes('fragment'));
    expect(checked.length).toBeGreaterThan(10);
    const problems = typeCheck(checked.map((b) => ({ name: `${b.page}:${b.line}`, code: b.code })));
    const failing = [...problems]
      .filter(([, list]) => list.length > 0)
      .map(([name, list]) => `${name}\n  ${list.join('\n  ')}`);
    expect(failing, failing.join('\n')).toEqual([]);
  }, 120_000);

  it('mark few blocks as fragments', () => {
    const fragments = allBlocks()
      .filter((b) => isScript(b) && b.attrs.includes('fragment'))
      .map((b) => `${b.page}:${b.line}`);
    expect(fragments.length, fragments.join('\n')).toBeLessThanOrEqual(MAX_FRAGMENTS);
  });

  it('would catch a snippet that does not compile', () => {
    const problems = typeCheck([
      { name: 'bad', code: "import { defineTol } from 'candor';\ndefineTol({});" },
      {
        name: 'good',
        code: "import { defineTool } from 'candor';\ndefineTool({ name: 'x', description: 'X.', effect: 'read', handler: () => 'x' });",
      },
    ]);
    expect(problems.get('bad')!.join('\n')).toContain("has no exported member named 'defineTol'");
    expect(problems.get('good')).toEqual([]);
  }, 120_000);

  it('run only candor commands and options the CLI has', async () => {
    const { problems, seen } = cliProblems(allBlocks().filter(isShell), await buildProgram(['node', 'candor']));
    expect(seen).toBeGreaterThan(30);
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('would catch an unknown command or option', async () => {
    const code =
      'GITHUB_TOKEN=x candor lint --profiel strict -- npx server --bogus # note\ncandor auth login x --no-browser && candor nope';
    const { problems, seen } = cliProblems(
      [{ page: 'x.md', line: 1, lang: 'sh', attrs: [], code }],
      await buildProgram(['node', 'candor']),
    );
    expect(seen).toBe(3);
    expect(problems).toEqual([
      'x.md:1: candor lint --profiel strict -- npx server --bogus: lint has no option --profiel',
      'x.md:1: candor nope: no command nope',
    ]);
  });
});
