/**
 * Every mistake of a gateway config in one run: the checks record what is wrong and
 * go on, and the load fails once, naming each problem with its JSON path, so a config
 * with three mistakes takes one edit, not three runs. A misspelt key is answered with
 * the key it most likely meant.
 */
import { CandorError } from '../errors.js';
import { closestNames } from '../util/edit-distance.js';

/** One mistake: where in the JSON (`servers.memory.trust`, `''` for the whole file) and what is wrong. */
export interface ConfigProblem {
  where: string;
  message: string;
}

/** Thrown by a check that cannot go on; {@link ConfigProblems.check} records it and moves to the next part. */
export class GatewayConfigError extends CandorError {
  override readonly name = 'GatewayConfigError';
  readonly file: string;
  readonly problems: readonly ConfigProblem[];

  constructor(file: string, problems: readonly ConfigProblem[]) {
    const line = (p: ConfigProblem) => `${p.where ? `${p.where}: ` : ''}${p.message}`;
    super(
      problems.length === 1
        ? `${file}: ${line(problems[0]!)}`
        : `${file}: ${problems.length} problems:\n${problems.map((p) => `  ${line(p)}`).join('\n')}`,
      { code: 'invalid_gateway_config' },
    );
    this.file = file;
    this.problems = problems;
  }
}

/**
 * `unknown key; did you mean "policy"? Expected one of …`: the nearest known keys first,
 * then the whole list.
 *
 * @example
 * ```ts
 * unknownKey('polcy', ['policy', 'servers']); // 'unknown key; did you mean "policy"? Expected one of policy, servers.'
 * ```
 */
export function unknownKey(key: string, known: readonly string[]): string {
  const near = closestNames(key, known, 2);
  const guess = near.length > 0 ? `did you mean ${near.map((k) => JSON.stringify(k)).join(' or ')}? ` : '';
  return `unknown key; ${guess}${guess ? 'E' : 'e'}xpected one of ${known.join(', ')}.`;
}

/**
 * The problems of one config file, gathered while it is checked.
 *
 * @example
 * ```ts
 * const problems = new ConfigProblems('candor.gateway.json');
 * problems.report('polcy', unknownKey('polcy', ['policy']));
 * const timeout = problems.check(() => positive(file, 'timeoutMs', root.timeoutMs));
 * problems.throwIfAny(); // GatewayConfigError naming both
 * ```
 */
export class ConfigProblems {
  readonly file: string;
  readonly #problems: ConfigProblem[] = [];

  constructor(file: string) {
    this.file = file;
  }

  /** Record a mistake and go on. */
  report(where: string, message: string): void {
    this.#problems.push({ where, message });
  }

  /**
   * Run one part of the check. A config error it throws is recorded (all of its
   * problems) and the part gives `undefined`; any other error is a bug and propagates.
   */
  check<T>(part: () => T): T | undefined {
    try {
      return part();
    } catch (error) {
      if (!(error instanceof GatewayConfigError) || error.file !== this.file) throw error;
      this.#problems.push(...error.problems);
      return undefined;
    }
  }

  /** How many problems so far. */
  get count(): number {
    return this.#problems.length;
  }

  /** Throw one error naming every problem recorded; nothing when there is none. */
  throwIfAny(): void {
    if (this.#problems.length > 0) throw new GatewayConfigError(this.file, [...this.#problems]);
  }
}
