/**
 * The clients candor writes entries for, by one name each, with the other names people
 * call them by. Every command that takes a client (`candor setup`, `candor gateway
 * --print-config`, `candor gateway add --client`) reads this one table, so a name that
 * works in one works in all.
 */

/** A client's name as candor knows it. */
export const CLIENT_IDS = ['claude-code', 'claude-desktop', 'cursor', 'vscode', 'gemini'] as const;
export type ClientName = (typeof CLIENT_IDS)[number];

/** Other names for each client: the program's own name, the product's. */
export const CLIENT_ALIASES: Readonly<Record<string, ClientName>> = Object.freeze({
  claude: 'claude-code',
  'claude-code': 'claude-code',
  'claude-desktop': 'claude-desktop',
  cursor: 'cursor',
  vscode: 'vscode',
  code: 'vscode',
  'vs-code': 'vscode',
  gemini: 'gemini',
  'gemini-cli': 'gemini',
});

/**
 * The client a name (or alias) stands for, or undefined; case does not matter.
 *
 * @example
 * ```ts
 * clientName('claude'); // 'claude-code'
 * clientName('Gemini-CLI'); // 'gemini'
 * ```
 */
export function clientName(name: string): ClientName | undefined {
  const key = name.trim().toLowerCase();
  return Object.hasOwn(CLIENT_ALIASES, key) ? CLIENT_ALIASES[key] : undefined;
}

/** Every name taken, for messages: `claude-code (claude), …`. */
export function clientNamesText(): string {
  return CLIENT_IDS.map((id) => {
    const others = Object.entries(CLIENT_ALIASES)
      .filter(([alias, to]) => to === id && alias !== id)
      .map(([alias]) => alias);
    return others.length > 0 ? `${id} (${others.join(', ')})` : id;
  }).join(', ');
}
