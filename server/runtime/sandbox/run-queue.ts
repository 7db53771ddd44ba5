// Limits how many scripts run at once (two cores shared by everyone); the rest wait in order.

export class RunQueue {
  private running = 0;
  private readonly waiting: { start: () => void; signal?: AbortSignal; onAbort?: () => void }[] = [];

  constructor(private readonly maxConcurrent: number) {
    if (!Number.isInteger(maxConcurrent) || maxConcurrent < 1) {
      throw new Error(`maxConcurrent must be a whole number ≥ 1, got ${String(maxConcurrent)}`);
    }
  }

  /** Runs waiting to start. */
  get length(): number {
    return this.waiting.length;
  }

  get active(): number {
    return this.running;
  }

  /**
   * Resolves with a release function once a slot is free, or with null when the signal aborts
   * while the run is still waiting.
   */
  acquire(signal?: AbortSignal): Promise<(() => void) | null> {
    if (signal?.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      const entry: (typeof this.waiting)[number] = {
        signal,
        start: () => {
          if (entry.onAbort) signal?.removeEventListener("abort", entry.onAbort);
          this.running++;
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            this.running--;
            this.next();
          });
        },
      };
      if (signal) {
        entry.onAbort = () => {
          const i = this.waiting.indexOf(entry);
          if (i >= 0) {
            this.waiting.splice(i, 1);
            resolve(null);
          }
        };
        signal.addEventListener("abort", entry.onAbort, { once: true });
      }
      this.waiting.push(entry);
      this.next();
    });
  }

  private next(): void {
    while (this.running < this.maxConcurrent && this.waiting.length > 0) this.waiting.shift()!.start();
  }
}
