// The audit page as a person opens it, over the audit bench's 1,000,000 rows (issue #38): the production console
// (`npm start`'s script) on the bench's database and data home, an admin signed in, then the procedures the page asks
// for with its default range (the last 7 days, components/audit/url-filter.ts): the summary above the table (count,
// chart, top skills, refusals, script runs, sources), the table's first page, the violations and the retention
// line. The page asks them at once and paints when the slowest answers; each is then timed alone, one request each.
import fs from "node:fs";
import path from "node:path";
import { freePort, startConsole, stopConsole } from "./console-process";
import { Client } from "./load-client";
import { seedUsers } from "./load-seed";

const DAY_MS = 86_400_000;
const r1 = (x: number) => Math.round(x * 10) / 10;

/**
 * `home` is the data home the bench filled (its audit key and checkpoints); `databaseUrl` the PostgreSQL database,
 * or undefined for the SQLite file in `home`.
 */
export async function auditPageTimes(repo: string, home: string, databaseUrl: string | undefined): Promise<Record<string, unknown>> {
  fs.chmodSync(home, 0o700); // private to the console's user, as docs/deploy.md asks of a data home
  const [admin] = await seedUsers(home, 1, databaseUrl);
  fs.mkdirSync(path.join(home, "project"), { recursive: true });
  const port = await freePort();
  const { child, base } = await startConsole(repo, home, port, admin!, undefined, databaseUrl ? { DATABASE_URL: databaseUrl } : {});
  try {
    const c = new Client(base);
    await c.signIn(admin!.email, admin!.password);
    const now = Date.now();
    const week = { from: now - 7 * DAY_MS, to: now + 1 };
    const page: Record<string, () => Promise<unknown>> = {
      "audit.summary": () => c.query("audit.summary", week, false),
      "audit.list": () => c.query("audit.list", { ...week, limit: 50 }, false),
      "audit.violations": () => c.query("audit.violations", { ...week, limit: 50 }, false),
      "audit.retention": () => c.query("audit.retention", undefined, false),
    };
    // The tRPC route's code is loaded by its first request: one cheap call first, as any earlier page would have.
    await page["audit.retention"]!();
    const timed = async (f: () => Promise<unknown>) => {
      const t0 = performance.now();
      await f();
      return r1(performance.now() - t0);
    };
    const t0 = performance.now();
    const atOnce = Object.fromEntries(await Promise.all(Object.entries(page).map(async ([k, f]) => [k, await timed(f)] as const)));
    const firstPaintMs = r1(performance.now() - t0);
    const alone: Record<string, number> = {};
    for (const [k, f] of Object.entries(page)) alone[k] = await timed(f);
    return { firstPaintMs, atOnceMs: atOnce, aloneMs: alone };
  } finally {
    await stopConsole(child);
  }
}
