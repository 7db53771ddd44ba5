// Telemetry intake of cumulative counters (issue #38), on SQLite and on a throw-away PostgreSQL cluster side by side:
// an OTLP request at the cap, 10,000 points of Codex's codex.skill.injected counter with cumulative temporality, each
// its own series. Each point needs its series' last recorded value: the first export finds none, the second finds
// the first's. Reported: wall time of each request through ingest() (decode in the offload worker, lookups, 10,000
// chained audit rows) and the lookup statements it ran. One statement per point was 50 s on PostgreSQL at load 15.
// INTAKE_BENCH_DATABASES=sqlite (or postgres) runs one; INTAKE_BENCH_ROUNDS (default 3) rounds of both exports each.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb, openDb, openPostgresDb, type Db } from "../../db/client";
import { postgresPool } from "../../db/dialect";
import { countStatements } from "../../db/test-support/statements";
import { auditSinkFor } from "../../server/services/audit";
import { ingest } from "../../server/services/telemetry";
import { postgresBinDir, startThrowawayCluster } from "../postgres";
import { median } from "./lib/stats";

export const name = "intake";

const POINTS = 10_000;
const ROUNDS = Number(process.env.INTAKE_BENCH_ROUNDS ?? 3);

const attr = (key: string, stringValue: string) => ({ key, value: { stringValue } });

/** One export of `POINTS` series of one Codex process started at `startMs`, each at `value`. */
function exportOf(startMs: number, value: number): Uint8Array {
  const now = Date.now();
  const dataPoints = Array.from({ length: POINTS }, (_, i) => ({ attributes: [attr("skill", `skill-${i}`), attr("status", "ok")], startTimeUnixNano: `${startMs}000000`, timeUnixNano: `${now}000000`, asInt: String(value) }));
  const metric = { name: "codex.skill.injected", sum: { aggregationTemporality: 2, isMonotonic: true, dataPoints } };
  return new TextEncoder().encode(JSON.stringify({ resourceMetrics: [{ resource: { attributes: [attr("service.name", "codex_cli_rs"), attr("host.name", "bench")] }, scopeMetrics: [{ metrics: [metric] }] }] }));
}

async function runOn(db: Db): Promise<Record<string, unknown>> {
  const sink = auditSinkFor(db);
  const first: number[] = [];
  const second: number[] = [];
  let lookups = 0;
  for (let round = 0; round < ROUNDS; round++) {
    // A new process start per round: new series, so the first export of each round finds no earlier value.
    const start = Date.now() - 60_000 + round;
    // A token per export: two requests at the cap are 20,000 rows, within a token's minute (30,000).
    const principal = (n: number) => ({ tokenId: `bench-${round}-${n}`, tokenName: "bench", userId: null, email: null, role: "viewer" as const, scopes: ["telemetry:write" as const] });
    for (const [n, value, into] of [[0, 5, first], [1, 8, second]] as const) {
      const counted = countStatements(db, /cumulative/);
      const t0 = performance.now();
      const r = await ingest(db, sink, { signal: "metrics", encoding: "json", bytes: exportOf(start, value), principal: principal(n) });
      into.push(performance.now() - t0);
      counted.stop();
      lookups = counted.count;
      if (r.accepted !== POINTS) throw new Error(`export ${n} of round ${round} wrote ${r.accepted} rows, not ${POINTS}`);
    }
  }
  await sink.close();
  return { points: POINTS, rounds: ROUNDS, firstExportMedianMs: Math.round(median(first)), secondExportMedianMs: Math.round(median(second)), lookupStatementsPerExport: lookups };
}

export async function run(): Promise<Record<string, unknown>> {
  process.env.OMNIFORGE_AUDIT_STDOUT = "0";
  const wanted = (process.env.INTAKE_BENCH_DATABASES ?? "sqlite,postgres").split(",");
  const out: Record<string, unknown> = {};
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-intake-bench-"));
  // The offload worker that decodes the request does not keep a process alive (a console's server does): this does.
  const alive = setInterval(() => {}, 60_000);
  try {
    if (wanted.includes("sqlite")) {
      const file = path.join(dir, "sqlite", "console.db");
      try {
        out.sqlite = await runOn(openDb(file));
      } finally {
        closeDb(file);
      }
    }
    if (wanted.includes("postgres")) {
      if (!postgresBinDir()) out.postgres = "skipped: no PostgreSQL server installed (apt-get install postgresql)";
      else {
        const cluster = await startThrowawayCluster();
        try {
          const db = await openPostgresDb(cluster.url, path.join(dir, "postgres"));
          try {
            out.postgres = await runOn(db);
          } finally {
            await postgresPool(db)!.end();
          }
        } finally {
          cluster.stop();
        }
      }
    }
  } finally {
    clearInterval(alive);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return { ...out, loadAverage: os.loadavg().map((x) => Math.round(x * 10) / 10) };
}
