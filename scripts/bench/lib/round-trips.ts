// Database round trips per request, counted by PostgreSQL itself (pg_stat_statements in the throw-away cluster) rather
// than timed: a count does not move with the other work on a shared machine, so runs on a noisy host compare. Only the
// console's role is counted (the bench's own checks connect as the same role, but never while a count is taken).
import pg from "pg";
import type { ThrowawayCluster } from "../../postgres";
import type { Client } from "./load-client";
import { r1 } from "./load-mix";

export interface StatementCount {
  calls: number;
  /** The statements most called, each with its calls. */
  top: { calls: number; query: string }[];
}

export class StatementCounter {
  private constructor(private readonly admin: pg.Client) {}

  /** The extension in the console's database, through the cluster's administrator (pg_stat_statements needs it). */
  static async open(cluster: ThrowawayCluster, database: string): Promise<StatementCounter> {
    const admin = new pg.Client({ connectionString: cluster.urlFor(database) });
    // The bench stops PostgreSQL on purpose later: a connection it ends must not end the bench (an unheard "error").
    admin.on("error", () => {});
    await admin.connect();
    await admin.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    return new StatementCounter(admin);
  }

  async reset(): Promise<void> {
    await this.admin.query("SELECT pg_stat_statements_reset()");
  }

  /** The console role's statements since the last reset. */
  async count(role = "omniforge", top = 8): Promise<StatementCount> {
    const { rows } = await this.admin.query<{ calls: string; query: string }>(
      `SELECT s.calls, s.query FROM pg_stat_statements s JOIN pg_roles r ON r.oid = s.userid WHERE r.rolname = $1 ORDER BY s.calls DESC`,
      [role],
    );
    const calls = rows.reduce((a, r) => a + Number(r.calls), 0);
    return { calls, top: rows.slice(0, top).map((r) => ({ calls: Number(r.calls), query: r.query.replace(/\s+/g, " ").slice(0, 160) })) };
  }

  close(): Promise<void> {
    return this.admin.end();
  }
}

/**
 * Each read of the mix on its own, `times` in a row from one person: the statements per call, and the CPU per call of
 * the server that answers (`cpuMs`, its process group's; CPU time, which other work on the host does not add to the
 * way it adds to latency). A quiet moment first counts what the servers do by themselves (the index's poll, the jobs).
 */
export async function roundTripsPerProcedure(counter: StatementCounter, c: Client, skillRef: unknown, playgroundSession: string, cpuMs: () => number | null, times = 50) {
  const probes: [string, () => Promise<unknown>][] = [
    ["(servers idle, 1 s)", () => new Promise((r) => setTimeout(r, 1000 / times))],
    ["skill.list", () => c.query("skill.list", { limit: 100 }, false)],
    ["skill.list (search)", () => c.query("skill.list", { q: "review", limit: 100 }, false)],
    ["skill.info", () => c.query("skill.info", { ref: skillRef }, false)],
    ["audit.list", () => c.query("audit.list", {}, false)],
    ["playground.get", () => c.query("playground.get", { sessionId: playgroundSession }, false)],
    ["playground.list", () => c.query("playground.list", {}, false)],
    ["health", () => c.health()],
  ];
  const out: Record<string, { perCall: number; cpuMsPerCall: number | null; top: StatementCount["top"] }> = {};
  for (const [label, call] of probes) {
    await counter.reset();
    const cpu0 = cpuMs();
    for (let i = 0; i < times; i++) await call();
    const cpu1 = cpuMs();
    const n = await counter.count("omniforge", 6);
    const cpuMsPerCall = cpu0 === null || cpu1 === null ? null : r1((cpu1 - cpu0) / times);
    out[label] = { perCall: r1(n.calls / times), cpuMsPerCall, top: n.top.map((t) => ({ calls: r1(t.calls / times), query: t.query })) };
  }
  return out;
}
