// Counters kept in the database, so every console server behind one database counts the same attempts: ten sign-ins
// a minute per account hold across two servers together, not ten on each (issue #38). Windows are aligned to the
// clock (the start of each window is a multiple of its length), so a hit is one upsert that returns the new count, on
// SQLite and PostgreSQL alike, and no server reads before it writes. The window before weighs in by the share of it
// still inside the last minute (a sliding estimate): with this window's count alone, six attempts at a minute's end
// and five at the next one's start were eleven in seconds, all let through (found by the two-server bench).
import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { rateLimits } from "../../../db/schema";

/** Passed windows are deleted once in this many hits (each server), so the table stays the size of two windows. */
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
    if (++this.hits % SWEEP_EVERY === 0) await this.sweep(windowStart - this.windowMs);
    const count = row?.count ?? 0;
    if (count > this.limit) return windowStart + this.windowMs - t;
    const [before] = await this.db
      .select({ count: rateLimits.count })
      .from(rateLimits)
      .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, windowStart - this.windowMs)));
    const previous = before?.count ?? 0;
    const elapsed = t - windowStart;
    if (count + previous * (1 - elapsed / this.windowMs) <= this.limit) return 0;
    // Until the window before has faded enough for this window's attempts to fit.
    return Math.max(1, Math.ceil(this.windowMs * (1 - (this.limit - count) / previous)) - elapsed);
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

  /** Deletes the windows before `oldestKept`. */
  private async sweep(oldestKept: number): Promise<void> {
    await this.db.delete(rateLimits).where(lt(rateLimits.windowStart, oldestKept));
  }
}
