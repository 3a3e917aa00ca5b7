/**
 * `--protocol 2025-11-25|2026-07-28|auto`: which protocol era a command speaks to the
 * server it connects to. `auto` (the default) sends a 2026-07-28 `server/discover` first
 * and falls back to the 2025-11-25 `initialize` handshake when the server does not know it.
 */
import { type Command, InvalidArgumentError } from 'commander';

/** The era a connection may be held to (the `era` option of `connectTarget`). */
export type ProtocolChoice = 'legacy' | 'modern' | 'auto';

const CHOICES: Readonly<Record<string, ProtocolChoice>> = {
  auto: 'auto',
  '2025-11-25': 'legacy',
  '2026-07-28': 'modern',
};

/**
 * Commander parser for `--protocol`: a protocol version or `auto`.
 *
 * @example
 * ```ts
 * parseProtocol('2026-07-28'); // 'modern'
 * ```
 */
export function parseProtocol(value: string): ProtocolChoice {
  const choice = CHOICES[value.trim()];
  if (choice === undefined) throw new InvalidArgumentError('must be 2025-11-25, 2026-07-28 or auto.');
  return choice;
}

/** Add `--protocol <version>` to a command that connects to a server. */
export function addProtocolOption(command: Command): Command {
  return command.option(
    '--protocol <version>',
    'protocol era to speak: 2025-11-25, 2026-07-28, or auto (2026-07-28 where the server offers it; the default, unless a config entry says "protocol")',
    parseProtocol,
  );
}

/**
 * The parsed `--protocol` value from a command's options; undefined when it was not
 * given, so a config entry's `"protocol"` (or else `auto`) decides.
 */
export function protocolOf(opts: Record<string, unknown>): ProtocolChoice | undefined {
  const value = opts.protocol;
  return value === 'legacy' || value === 'modern' || value === 'auto' ? value : undefined;
}
