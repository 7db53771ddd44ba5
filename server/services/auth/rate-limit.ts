// Fixed-window counters in memory: enough for one console process. Sign-in counts attempts under the keys
// "account:<email>" and "address:<ip>", so guessing one account from many addresses and many accounts from one
// address both stop; the telemetry intake counts audit rows per token.
export class RateLimiter {
  private readonly hits = new Map<string, { windowStart: number; count: number }>();
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one attempt; returns how long to wait (ms) when over the limit, else 0. */
  hit(key: string): number {
    const t = this.now();
    const cur = this.hits.get(key);
    if (!cur || t - cur.windowStart >= this.windowMs) {
      this.hits.set(key, { windowStart: t, count: 1 });
      if (this.hits.size > 10_000) this.sweep(t);
      return 0;
    }
    cur.count += 1;
    return cur.count > this.limit ? cur.windowStart + this.windowMs - t : 0;
  }

  /**
   * Counts `n` units at once (rows, not attempts), unless that would pass the limit: then nothing is counted and
   * the wait (ms) until the window ends is returned, so a refused batch can be sent whole again later.
   */
  take(key: string, n: number, t = this.now()): number {
    let cur = this.hits.get(key);
    if (!cur || t - cur.windowStart >= this.windowMs) {
      cur = { windowStart: t, count: 0 };
      this.hits.set(key, cur);
      if (this.hits.size > 10_000) this.sweep(t);
    }
    if (cur.count + n > this.limit) return Math.max(1, cur.windowStart + this.windowMs - t);
    cur.count += n;
    return 0;
  }

  private sweep(t: number): void {
    for (const [k, v] of this.hits) if (t - v.windowStart >= this.windowMs) this.hits.delete(k);
  }
}
