/**
 * The CLI reference page, generated from the commander definitions themselves (the
 * same text `--help` prints), so the docs cannot drift from what the commands accept.
 */
import type { Command, Help } from 'commander';

// Prose, not HTML: "<target>" in a description must not become a tag on the page.
const prose = (value: string) =>
  value
    // commander's "(default: [])" and "(default: false)" on repeatable options and flags say nothing.
    .replace(/ \(default: (\[\]|false)\)/g, '')
    .replaceAll('<', '&lt;')
    .replaceAll('{{', '&#123;&#123;')
    .replaceAll('|', '\\|')
    .replace(/\s*\n\s*/g, ' ');
const code = (value: string) => `\`${value.replaceAll('|', '\\|')}\``;

/** Every command under `program`, depth first, with its full name (`auth login`). */
export function commandsOf(
  program: Command,
  help: Help = program.createHelp(),
): Array<{ name: string; command: Command }> {
  const walk = (command: Command, prefix: string): Array<{ name: string; command: Command }> =>
    help
      .visibleCommands(command)
      .filter((sub) => sub.name() !== 'help')
      .flatMap((sub) => {
        const name = `${prefix}${sub.name()}`;
        return [{ name, command: sub }, ...walk(sub, `${name} `)];
      });
  return walk(program, '');
}

/** The text a command adds after its generated help (`addHelpText('after', …)`): notes, then examples. */
function afterHelp(command: Command): string {
  let out = '';
  const saved = command.configureOutput();
  command.configureOutput({ ...saved, writeOut: (text) => (out += text), getOutHasColors: () => false });
  try {
    command.outputHelp();
  } finally {
    command.configureOutput(saved);
  }
  const core = command.helpInformation();
  return out.slice(out.indexOf(core) + core.length).trim();
}

/** Notes as paragraphs; an `Examples:` block as a shell block. */
function renderAfterHelp(text: string): string[] {
  if (text === '') return [];
  const [notes = '', examples] = text.split(/^Examples?:\n/m);
  const lines = notes
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '')
    .flatMap((paragraph) => [prose(paragraph).replaceAll('\\|', '|'), '']);
  if (examples !== undefined) {
    lines.push(
      'Examples:',
      '',
      '```sh',
      ...examples
        .trimEnd()
        .split('\n')
        .map((line) => line.replace(/^ {2}/, '')),
      '```',
      '',
    );
  }
  return lines;
}

function section(name: string, command: Command, help: Help, root: string): string[] {
  const lines = [
    `## ${root} ${name}`,
    '',
    prose(help.commandDescription(command)),
    '',
    '```sh',
    `${root} ${name} ${command.usage()}`.trimEnd(),
    '```',
    '',
  ];
  const args = help.visibleArguments(command);
  if (args.length > 0) {
    lines.push('| Argument | Description |', '|---|---|');
    for (const arg of args) lines.push(`| ${code(help.argumentTerm(arg))} | ${prose(help.argumentDescription(arg))} |`);
    lines.push('');
  }
  const options = help.visibleOptions(command).filter((option) => option.long !== '--help');
  if (options.length > 0) {
    lines.push('| Option | Description |', '|---|---|');
    for (const option of options)
      lines.push(`| ${code(help.optionTerm(option))} | ${prose(help.optionDescription(option))} |`);
    lines.push('');
  }
  return [...lines, ...renderAfterHelp(afterHelp(command))];
}

/**
 * The Markdown page for every command of `program`, in the order `--help` lists them.
 *
 * @example
 * ```ts
 * writeFileSync('docs/reference/cli.md', cliReference(await buildProgram(['node', 'candor'])));
 * ```
 */
export function cliReference(program: Command): string {
  const help = program.createHelp();
  const root = program.name();
  const commands = commandsOf(program, help);
  const global = help.visibleOptions(program).filter((option) => option.long !== '--help');
  return [
    `# The \`${root}\` CLI`,
    '',
    '<!-- Generated from the command definitions in src/cli/commands by scripts/cli-reference-doc.ts (npm run docs); do not edit. -->',
    '',
    prose(help.commandDescription(program)),
    '',
    `Targets, protocol eras, a server's environment and sign-in are described in [Targets, protocol eras and sign-in](./targets-and-sign-in.md). Every command also takes \`--help\`; ${global.map((o) => code(help.optionTerm(o))).join(', ')} apply to all. A failure is one line on stderr that says what to do, with exit code 1 (2 for a wrong command line); a stack trace helps only with an error nobody meant to throw, so only those suggest \`--debug\`. Output piped into a reader that stops early (\`candor scan --help | head -1\`) ends the command quietly, exit 0.`,
    '',
    '| Command | What it does |',
    '|---|---|',
    ...commands.map(
      ({ name, command }) =>
        `| [${code(`${root} ${name}`)}](#${`${root}-${name}`.replaceAll(' ', '-')}) | ${prose(help.commandDescription(command))} |`,
    ),
    '',
    ...commands.flatMap(({ name, command }) => section(name, command, help, root)),
  ].join('\n');
}
