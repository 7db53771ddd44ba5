// How much of a skill the doctor reads: a skill's files are anyone's input, so the checks stop when a skill's
// time is spent, and a line too long to scan is checked only at its start. Either way the report says the
// skill was not fully checked (skill.not-fully-checked) rather than passing it silently.

/** Time for one skill's checks; a skill of ordinary size needs a few milliseconds. */
export const DOCTOR_BUDGET_MS = 2000;
/** Longest line of Python or JavaScript the pattern checks read; past it only the start is read. */
export const MAX_SCANNED_LINE = 1000;

export class Budget {
  private readonly deadline: number;
  /** Why the skill was not fully checked (empty: it was). */
  readonly gaps: string[] = [];
  private out = false;

  constructor(
    readonly ms: number,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.deadline = clock() + ms;
  }

  /** Whether the time is spent; the first place that stopped for it is remembered. */
  spent(where: string): boolean {
    if (this.out) return true;
    if (this.clock() < this.deadline) return false;
    this.out = true;
    this.gaps.push(`the ${this.ms} ms budget ran out at ${where}`);
    return true;
  }

  /** A part read only in part, for another reason than time. Only the first few are named. */
  skipped(what: string): void {
    if (this.gaps.length < 3) this.gaps.push(what);
  }
}

/** For callers that scan one text without a skill (tests, the editor's single file): no time limit. */
export const noBudget = () => new Budget(Infinity);
