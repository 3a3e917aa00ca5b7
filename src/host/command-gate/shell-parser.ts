/**
 * Parsing shell commands for the command gate with real shell parsers, never
 * regexes (`cat a && rm -rf ~` is not a read).
 *
 * Two parsers must agree before a command can run without a prompt:
 * - tree-sitter's bash grammar (`tree-sitter-bash` on `web-tree-sitter`) gives
 *   the full syntax tree the gate walks;
 * - mvdan/sh (`sh-syntax`, the parser behind shfmt) checks that the text is
 *   valid bash and where its top-level statements are. Its WASM build only
 *   exposes statement positions, not the tree, hence the pairing.
 * A parse error in either, error-recovery nodes in the tree, or a different
 * statement count is "unparseable": the gate asks.
 */
import { createRequire } from 'node:module';
import { LangVariant, parse as parseWithShSyntax } from 'sh-syntax';
import { Language, type Node, Parser } from 'web-tree-sitter';

export type { Node as SyntaxNode } from 'web-tree-sitter';

/** The outcome of parsing: a tree, or why there is none. */
export type ShellParse = { ok: true; root: Node } | { ok: false; reason: string };

let parserPromise: Promise<Parser> | undefined;

async function loadParser(): Promise<Parser> {
  const require = createRequire(import.meta.url);
  await Parser.init();
  const language = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}

/** The tree-sitter parser, loaded once (the WASM grammar takes a few milliseconds). */
function bashParser(): Promise<Parser> {
  parserPromise ??= loadParser().catch((error: unknown) => {
    parserPromise = undefined;
    throw error;
  });
  return parserPromise;
}

/**
 * Parse a command line as bash.
 *
 * @example
 * ```ts
 * const parsed = await parseShell('git status && ls -la');
 * if (parsed.ok) console.log(parsed.root.toString());
 * ```
 */
export async function parseShell(text: string): Promise<ShellParse> {
  if (text.includes('\0')) return { ok: false, reason: 'the command contains a NUL byte' };
  let statements: number;
  try {
    const file = await parseWithShSyntax(text, { variant: LangVariant.LangBash, keepComments: false });
    // The typings name the field `Stmts`; the WASM build has sent `Stmt` in some releases.
    const list =
      (file as unknown as { Stmts?: unknown[]; Stmt?: unknown[] }).Stmts ?? (file as { Stmt?: unknown[] }).Stmt;
    statements = Array.isArray(list) ? list.length : -1;
  } catch (error) {
    return { ok: false, reason: `bash cannot parse it (${(error as Error).message})` };
  }
  const parser = await bashParser();
  const tree = parser.parse(text);
  if (!tree) return { ok: false, reason: 'the parser gave no syntax tree' };
  const root = tree.rootNode;
  if (root.hasError) return { ok: false, reason: 'the syntax tree has errors' };
  const topLevel = root.namedChildren.filter((child) => child !== null && child.type !== 'comment').length;
  if (statements >= 0 && statements !== topLevel) {
    return { ok: false, reason: `the two shell parsers disagree on its statements (${statements} vs ${topLevel})` };
  }
  return { ok: true, root };
}
