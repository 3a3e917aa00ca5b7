/**
 * The server's own log (not MCP `notifications/message`, which goes to the
 * client). It must never write to stdout: on stdio, stdout is the protocol.
 */

/** Where the engine reports what the operator should know (masked handler errors, dropped messages). */
export interface ServerLogger {
  error(message: string, details?: { [key: string]: unknown }): void;
  warn(message: string, details?: { [key: string]: unknown }): void;
  info(message: string, details?: { [key: string]: unknown }): void;
  debug(message: string, details?: { [key: string]: unknown }): void;
}

const ORDER = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 } as const;

/** Options of {@link stderrLogger}. */
export interface StderrLoggerOptions {
  /** Lowest level written. Default `info`. */
  level?: keyof typeof ORDER;
  /** Prefix of every line (`logger` in JSON). Default `candor`. */
  name?: string;
  /**
   * `text`: `candor error: message {"details":…}`. `json`: one JSON object per
   * line (`time`, `level`, `logger`, `msg`, then the details: `requestId`,
   * `session`, `tool`, `error` …) for log collectors. Default `text`.
   */
  format?: 'text' | 'json';
}

/**
 * The default server logger: one line per entry on stderr, details as JSON.
 *
 * @example
 * ```ts
 * const logger = stderrLogger({ level: 'debug' });
 * logger.error('tool failed', { tool: 'read_file', requestId: 3 });
 * ```
 */
export function stderrLogger(options: StderrLoggerOptions = {}): ServerLogger {
  return lineLogger((line) => process.stderr.write(`${line}\n`), options);
}

/**
 * The same lines through `console.error`: the default logger on runtimes without
 * a process stderr (Cloudflare workerd, Deno Deploy, edge functions), whose log
 * tail shows the console.
 *
 * @example
 * ```ts
 * const logger = consoleLogger({ format: 'json' });
 * ```
 */
export function consoleLogger(options: StderrLoggerOptions = {}): ServerLogger {
  return lineLogger((line) => console.error(line), options);
}

function lineLogger(writeLine: (line: string) => void, options: StderrLoggerOptions): ServerLogger {
  const { level = 'info', name = 'candor', format = 'text' } = options;
  const min = ORDER[level];
  const write = (at: keyof typeof ORDER, message: string, details?: { [key: string]: unknown }) => {
    if (ORDER[at] < min) return;
    if (format === 'json') {
      writeLine(safeJson({ time: new Date().toISOString(), level: at, logger: name, msg: message, ...details }));
      return;
    }
    let line = `${name} ${at}: ${message}`;
    if (details !== undefined) line += ` ${safeJson(details)}`;
    writeLine(line);
  };
  return {
    error: (m, d) => write('error', m, d),
    warn: (m, d) => write('warn', m, d),
    info: (m, d) => write('info', m, d),
    debug: (m, d) => write('debug', m, d),
  };
}

/**
 * The logger settings an operator gives in the environment: `CANDOR_LOG_LEVEL`
 * (`debug`, `info`, `warn`, `error`, `silent`) and `CANDOR_LOG_FORMAT=json`. Read
 * where the environment enters (the CLI, `createServer`), passed inward as options.
 *
 * @example
 * ```ts
 * const logger = stderrLogger({ name: 'my-server', ...logSettingsFrom(process.env) });
 * ```
 */
export function logSettingsFrom(
  env: Readonly<Record<string, string | undefined>>,
): Pick<StderrLoggerOptions, 'level' | 'format'> {
  const settings: Pick<StderrLoggerOptions, 'level' | 'format'> = {};
  const level = env.CANDOR_LOG_LEVEL;
  if (level !== undefined && Object.hasOwn(ORDER, level)) settings.level = level as keyof typeof ORDER;
  if (env.CANDOR_LOG_FORMAT === 'json') settings.format = 'json';
  return settings;
}

/** A logger that drops everything (tests, embedding apps that log elsewhere). */
export const silentLogger: ServerLogger = Object.freeze({
  error() {},
  warn() {},
  info() {},
  debug() {},
});

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, v) =>
      v instanceof Error ? { name: v.name, message: v.message, stack: v.stack } : typeof v === 'bigint' ? String(v) : v,
    );
  } catch {
    return '[unserialisable details]';
  }
}
