/**
 * The command gate: decides whether a shell command may run without a prompt.
 * It walks the syntax tree and allows only statements built from known
 * read-only commands with safe arguments: no writing redirections, no command
 * or process substitution, no `-delete`/`-exec`-style options, no pipe into an
 * interpreter, no prefix assignments that change behaviour, nothing dynamic.
 * Anything else — including anything it cannot parse — asks.
 */
import type { Arg } from './arguments.js';
import { unsafeArguments } from './arguments.js';
import { INTERPRETERS, READ_ONLY_COMMANDS, SAFE_ENV_PREFIXES } from './read-only-commands.js';
import { parseShell, type SyntaxNode } from './shell-parser.js';

/** The gate's answer for one command line. */
export interface GateVerdict {
  /** `allow`: only reads, may run without a prompt. `ask`: a person must confirm. */
  decision: 'allow' | 'ask';
  /** Why it asks (empty when it allows). */
  reasons: string[];
  /** The command names found, in order (for display). */
  commands: string[];
}

/**
 * Check a shell command line.
 *
 * @example
 * ```ts
 * await checkCommand('git status && ls -la'); // { decision: 'allow', reasons: [], commands: ['git', 'ls'] }
 * await checkCommand('cat a && rm -rf ~');    // { decision: 'ask', reasons: ['rm is not a known read-only command'], … }
 * ```
 */
export async function checkCommand(command: string): Promise<GateVerdict> {
  if (typeof command !== 'string' || command.trim() === '') {
    return { decision: 'ask', reasons: ['the command is empty or not a string'], commands: [] };
  }
  const parsed = await parseShell(command);
  if (!parsed.ok) return { decision: 'ask', reasons: [`unparseable: ${parsed.reason}`], commands: [] };
  const walk = new GateWalk();
  walk.substitutions(parsed.root);
  walk.visit(parsed.root, false);
  const reasons = [...new Set(walk.reasons)];
  return { decision: reasons.length === 0 ? 'allow' : 'ask', reasons, commands: walk.commands };
}

const WRITING_REDIRECTS = new Set(['>', '>>', '&>', '&>>', '>|']);

class GateWalk {
  readonly reasons: string[] = [];
  readonly commands: string[] = [];

  /** Substitutions run commands wherever they appear, even inside strings and here-documents. */
  substitutions(node: SyntaxNode): void {
    if (node.type === 'command_substitution') {
      this.reasons.push(
        node.text.startsWith('`')
          ? `runs a command substitution in backticks (${clip(node.text)})`
          : `runs a command substitution (${clip(node.text)})`,
      );
    } else if (node.type === 'process_substitution') {
      this.reasons.push(`uses process substitution (${clip(node.text)})`);
    } else if (node.type === 'arithmetic_expansion') {
      this.reasons.push(`uses arithmetic expansion (${clip(node.text)}), which can assign and index`);
    }
    for (const child of node.namedChildren) if (child) this.substitutions(child);
  }

  visit(node: SyntaxNode, piped: boolean): void {
    switch (node.type) {
      case 'program':
      case 'list':
        for (const child of node.children) {
          if (!child) continue;
          if (child.type === '&') this.reasons.push('runs a command in the background (&)');
          else if (child.isNamed) this.visit(child, false);
        }
        return;
      case 'pipeline': {
        let index = 0;
        for (const child of node.namedChildren) if (child) this.visit(child, piped || index++ > 0);
        return;
      }
      case 'comment':
        return;
      case 'subshell':
      case 'compound_statement':
      case 'negated_command':
        for (const child of node.namedChildren) if (child) this.visit(child, piped);
        return;
      case 'redirected_statement': {
        const body = node.childForFieldName('body');
        if (body) this.visit(body, piped);
        for (const child of node.childrenForFieldName('redirect')) if (child) this.redirect(child);
        return;
      }
      case 'command':
        this.command(node, piped);
        return;
      case 'variable_assignment':
        this.reasons.push(
          `sets the shell variable ${node.childForFieldName('name')?.text ?? ''}, which later commands see`,
        );
        return;
      default:
        this.reasons.push(`uses a shell construct the gate does not allow (${node.type.replace(/_/g, ' ')})`);
    }
  }

  redirect(node: SyntaxNode): void {
    if (node.type === 'herestring_redirect') return; // stdin from a string; substitutions were checked
    if (node.type === 'heredoc_redirect') {
      // tree-sitter hangs whatever follows `<<EOF` on the same line (`> out`, `| sh`, `&& rm x`) here.
      for (const child of node.namedChildren) {
        if (!child || child.type.startsWith('heredoc_')) continue;
        if (child.type === 'file_redirect') this.redirect(child);
        else if (child.type === 'pipeline') {
          for (const piped of child.namedChildren) if (piped) this.visit(piped, true);
        } else this.visit(child, false);
      }
      return;
    }
    if (node.type !== 'file_redirect') {
      this.reasons.push(`uses a redirection the gate does not know (${node.type})`);
      return;
    }
    const operator = node.children.find((child) => child && !child.isNamed)?.type ?? '';
    const destination = node.childForFieldName('destination');
    const target = destination ? literal(destination) : undefined;
    if (operator === '<') {
      if (!target) this.reasons.push(`reads input from a file named by an expansion (${clip(node.text)})`);
      return;
    }
    if (operator === '>&-' || operator === '<&-') return; // closes a descriptor
    if ((operator === '>&' || operator === '<&') && destination?.type === 'number') return; // duplicates a descriptor
    if (WRITING_REDIRECTS.has(operator) || operator === '>&') {
      if (target?.value === '/dev/null' && !target.glob) return;
      this.reasons.push(`redirects output to a file (${clip(node.text)})`);
      return;
    }
    this.reasons.push(`uses the redirection ${operator || node.text}`);
  }

  command(node: SyntaxNode, piped: boolean): void {
    for (const child of node.namedChildren) {
      if (child?.type !== 'variable_assignment') continue;
      const name = child.childForFieldName('name')?.text ?? '';
      const value = child.childForFieldName('value');
      if (!SAFE_ENV_PREFIXES.has(name)) {
        this.reasons.push(`the prefix assignment ${name}=… changes how the command behaves`);
      } else if (value && !literal(value)) {
        this.reasons.push(`the prefix assignment ${name}=… is not a literal`);
      }
    }
    for (const redirect of node.childrenForFieldName('redirect')) if (redirect) this.redirect(redirect);

    const nameNode = node.childForFieldName('name');
    const name = nameNode?.firstNamedChild ? literal(nameNode.firstNamedChild) : undefined;
    if (!nameNode) {
      return; // assignments only, reported above
    }
    if (!name || name.glob) {
      this.reasons.push(`the command name ${clip(nameNode.text)} is not a literal`);
      return;
    }
    const argv: Arg[] = [name];
    const dynamic: string[] = [];
    for (const argument of node.childrenForFieldName('argument')) {
      if (!argument) continue;
      const value = literal(argument);
      if (value) argv.push(value);
      else dynamic.push(`the argument ${clip(argument.text)} is not a literal (it expands at run time)`);
    }
    // Judge the command first (its reason is the clearest), then the words it cannot know.
    this.argv(argv, piped);
    this.reasons.push(...dynamic);
  }

  /** Judge one command's words (after quote removal), following wrappers such as `command` and `env`. */
  argv(argv: readonly Arg[], piped: boolean): void {
    const [head, ...args] = argv;
    if (!head) return;
    const name = head.value;
    this.commands.push(name);
    if (name.includes('/')) {
      this.reasons.push(`runs a program by path (${name}), which may not be what its name says`);
      return;
    }
    if (INTERPRETERS.has(name)) {
      const what = name === 'xargs' && args[0] ? `xargs ${args[0].value}` : name;
      this.reasons.push(piped ? `pipes into an interpreter (${what})` : `${what} runs code it is given`);
      return;
    }
    const inner = unwrap(name, args, this.reasons);
    if (inner === null) return; // the wrapper itself was judged
    if (inner !== undefined) {
      this.argv(inner, piped);
      return;
    }
    const rule = READ_ONLY_COMMANDS[name];
    if (!rule) {
      this.reasons.push(`${name} is not a known read-only command`);
      return;
    }
    const unsafe = unsafeArguments(name, rule, args);
    if (unsafe) this.reasons.push(unsafe);
  }
}

/**
 * For wrappers (`command`, `builtin`, `time`, `nice`, `timeout`, `env`): the
 * wrapped command's words; `null` when the wrapper was judged on its own;
 * `undefined` when `name` is not a wrapper.
 */
function unwrap(name: string, args: readonly Arg[], reasons: string[]): Arg[] | null | undefined {
  switch (name) {
    case 'command': {
      if (args[0]?.value === '-v' || args[0]?.value === '-V') return null; // a lookup
      const rest = args[0]?.value === '-p' ? args.slice(1) : args;
      return rest.length > 0 ? [...rest] : null;
    }
    case 'builtin':
      return args.length > 0 ? [...args] : null;
    case 'time': {
      const rest = args[0]?.value === '-p' ? args.slice(1) : args;
      return rest.length > 0 ? [...rest] : null;
    }
    case 'nice': {
      let i = 0;
      while (i < args.length && args[i]!.value.startsWith('-')) {
        const option = args[i]!.value;
        i += option === '-n' || option === '--adjustment' ? 2 : 1;
      }
      return i < args.length ? args.slice(i) : null;
    }
    case 'timeout': {
      let i = 0;
      while (i < args.length && args[i]!.value.startsWith('-')) {
        const option = args[i]!.value;
        i += option === '-s' || option === '-k' || option === '--signal' || option === '--kill-after' ? 2 : 1;
      }
      i++; // the duration
      return i < args.length ? args.slice(i) : null;
    }
    case 'env': {
      let i = 0;
      for (; i < args.length; i++) {
        const { value } = args[i]!;
        if (value === '-0' || value === '--null') continue;
        if (value.startsWith('-')) {
          reasons.push(`env ${value} changes how the command runs`);
          return null;
        }
        const eq = value.indexOf('=');
        if (eq <= 0) break;
        if (!SAFE_ENV_PREFIXES.has(value.slice(0, eq))) {
          reasons.push(`env ${value.slice(0, eq)}=… changes how the command behaves`);
          return null;
        }
      }
      return i < args.length ? args.slice(i) : null; // bare `env` prints the environment
    }
    default:
      return undefined;
  }
}

/**
 * The literal value of a word after quote removal, or `undefined` when it
 * depends on expansions. Unquoted glob and brace characters are kept but
 * flagged: the shell may turn them into other words (even into options).
 */
export function literal(node: SyntaxNode): Arg | undefined {
  switch (node.type) {
    case 'word': {
      const text = node.text;
      let value = '';
      let glob = false;
      for (let i = 0; i < text.length; i++) {
        const c = text[i]!;
        if (c === '\\') {
          value += text[++i] ?? '';
          continue;
        }
        if ('*?[{}'.includes(c)) glob = true;
        value += c;
      }
      return { value, glob };
    }
    case 'number':
      return { value: node.text, glob: false };
    case 'raw_string':
      return { value: node.text.slice(1, -1), glob: false };
    case 'string': {
      let value = '';
      for (const child of node.namedChildren) {
        if (child?.type !== 'string_content') return undefined;
        value += child.text.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
      }
      return { value, glob: false };
    }
    case 'concatenation': {
      let value = '';
      let glob = false;
      for (const child of node.children) {
        if (!child) continue;
        const part = child.isNamed ? literal(child) : undefined;
        if (!part) return undefined;
        value += part.value;
        glob ||= part.glob;
      }
      return { value, glob };
    }
    default:
      // $VAR, ${…}, $'…', $"…", substitutions: known only at run time.
      return undefined;
  }
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}
