// `omniforge db copy` at 1,000,000 audit rows (issue #38): a console.db filled through the audit writer (hash-chained,
// keyed, checkpointed), copied by the bundled CLI into a throw-away PostgreSQL cluster. Reports the rows per second
// of the whole command (copy, counts and the chain verified on the PostgreSQL side) and the command's peak memory,
// which stays flat as the rows grow because they stream in batches. DB_COPY_BENCH_ROWS changes the size.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb, openDb } from "../../db/client";
import { toPendingFields } from "../../server/services/audit/event-row";
import { AuditWriter } from "../../server/services/audit/writer";
import { cliEntry } from "../cli-bundle.mjs";
import { startThrowawayCluster } from "../postgres";
import { makeEvents } from "./audit";

export const name = "db-copy";

const TOTAL = Number(process.env.DB_COPY_BENCH_ROWS ?? 1_000_000);
const repo = path.resolve(import.meta.dirname, "..", "..");

// Printed by the child on exit: its own peak resident memory, without a wrapper process in between.
const PEAK_RSS = `data:text/javascript,process.on("exit",()=>process.stderr.write("peak-rss-kb "+process.resourceUsage().maxRSS+"\\n"))`;

export async function run(): Promise<Record<string, unknown>> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-copy-bench-"));
  const cluster = await startThrowawayCluster();
  try {
    const file = path.join(home, "console.db");
    const db = openDb(file);
    const writer = new AuditWriter(db, { stdout: false });
    const CHUNK = 50_000;
    for (let done = 0; done < TOTAL; done += CHUNK) {
      const n = Math.min(CHUNK, TOTAL - done);
      writer.append(makeEvents(n, Date.now() - 86_400_000, 86_400_000, 5 + done).map(toPendingFields));
    }
    writer.close();
    db.$client.pragma("wal_checkpoint(TRUNCATE)");
    closeDb(file);
    await cliEntry(repo);
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ["--import", PEAK_RSS, path.join(repo, "bin", "omniforge.mjs"), "db", "copy", "--to", cluster.url, "--home", home], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    const ms = performance.now() - t0;
    if (r.status !== 0) throw new Error(`db copy failed: ${r.stderr}`);
    const verified = /audit chain verified in .*: (\d+) rows intact/.exec(r.stdout);
    if (Number(verified?.[1]) !== TOTAL) throw new Error(`db copy verified ${verified?.[1]} rows, not ${TOTAL}: ${r.stdout}`);
    const peakKb = Number(/peak-rss-kb (\d+)/.exec(r.stderr)?.[1]);
    return {
      rows: TOTAL,
      "copy and verify, s": Math.round(ms / 100) / 10,
      "rows/s": Math.round(TOTAL / (ms / 1000)),
      "peak memory of the command, MB": Math.round(peakKb / 1024),
      "console.db, MB": Math.round(fs.statSync(file).size / 1024 / 1024),
    };
  } finally {
    cluster.stop();
    fs.rmSync(home, { recursive: true, force: true });
  }
}
