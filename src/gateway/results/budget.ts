/**
 * A guard's time budget. The searches check it as they go (every few hundred steps, as
 * a clock read costs ~30 ns) and stop with {@link GuardBudgetExceeded} once it is spent, so
 * no result holds the event loop longer than the budget whatever it contains.
 */
import { CandorError } from '../../errors.js';

/** The guard ran out of time on a result; what happens to the result is the caller's policy. */
export class GuardBudgetExceeded extends CandorError {
  override readonly name = 'GuardBudgetExceeded';
}

/** A deadline, checked cheaply. */
export class Budget {
  private readonly deadline: number;
  private steps = 0;

  /**
   * @param ms the time the searches may take
   * @param maxSpan the longest part of a text one rule may be run on at once (a rule's run
   *   cannot be stopped midway): a longer one ends the budget, so the work goes where it can
   *   be stopped (the guard's worker)
   */
  constructor(
    readonly ms: number,
    readonly maxSpan = Number.POSITIVE_INFINITY,
  ) {
    this.deadline = performance.now() + ms;
  }

  /** Throws once the deadline has passed; reads the clock every 256th call. */
  step(): void {
    if ((++this.steps & 255) === 0) this.check();
  }

  /** Throws if one rule would be run on a part this long. */
  span(length: number): void {
    if (length > this.maxSpan)
      throw new GuardBudgetExceeded(
        `a part of ${length} characters is longer than one step may read (${this.maxSpan})`,
      );
  }

  /** Throws if the deadline has passed. */
  check(): void {
    if (performance.now() > this.deadline)
      throw new GuardBudgetExceeded(`the result guard's budget of ${this.ms} ms was spent`);
  }
}

/** A budget that never runs out (direct calls of the searches, tests). */
export const UNBOUNDED: BudgetCheck = { step: () => {}, check: () => {}, span: () => {} };

/** What the searches need of a budget. */
export type BudgetCheck = Pick<Budget, 'step' | 'check' | 'span'>;
