// Fixed-window counters in memory: enough for one console process. Keys are "account:<email>" and
// "address:<ip>", so guessing one account from many addresses and many accounts from one address both stop.
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

  private sweep(t: number): void {
    for (const [k, v] of this.hits) if (t - v.windowStart >= this.windowMs) this.hits.delete(k);
  }
}
