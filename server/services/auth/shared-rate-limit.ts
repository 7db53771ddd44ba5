// Fixed-window counters kept in the database, so every console server behind one database counts the same
// attempts: ten sign-ins a minute per account hold across two servers together, not ten on each (issue #38).
// Windows are aligned to the clock (the start of each window is a multiple of its length), so a hit is one upsert
// that returns the new count, on SQLite and PostgreSQL alike, and no server reads before it writes.
import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { rateLimits } from "../../../db/schema";

/** Passed windows are deleted once in this many hits (each server), so the table stays the size of one window. */
const SWEEP_EVERY = 500;

export class SharedRateLimiter {
  private hits = 0;
  constructor(
    private readonly db: Db,
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one attempt under `key`; returns how long to wait (ms) when it is over the limit, else 0. */
  async hit(key: string): Promise<number> {
    const t = this.now();
    const windowStart = t - (t % this.windowMs);
    const [row] = await this.db
      .insert(rateLimits)
      .values({ key, windowStart, count: 1 })
      .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { count: sql`${rateLimits.count} + 1` } })
      .returning({ count: rateLimits.count });
    if (++this.hits % SWEEP_EVERY === 0) await this.sweep(windowStart);
    return row && row.count > this.limit ? windowStart + this.windowMs - t : 0;
  }

  /** The attempts counted under `key` in the current window (for tests and health). */
  async count(key: string): Promise<number> {
    const t = this.now();
    const [row] = await this.db
      .select({ count: rateLimits.count })
      .from(rateLimits)
      .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, t - (t % this.windowMs))));
    return row?.count ?? 0;
  }

  private async sweep(current: number): Promise<void> {
    await this.db.delete(rateLimits).where(lt(rateLimits.windowStart, current));
  }
}
