// The receiver's logic against a real SQLite file with a long audit behind it: Codex's cumulative counter needs
// the value its series last recorded, once per point of every export, and that lookup must not read the
// skill's whole history each time.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { auditSinkFor, flushAudit } from "../audit";
import { tempDb } from "../../test-support/temp-db";
import { ingest } from "./intake";

process.env.OMNIFORGE_AUDIT_STDOUT = "0";

let t: ReturnType<typeof tempDb>;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => {
  auditSinkFor(t.db).close();
  t.cleanup();
});

const principal = { tokenId: "t1", tokenName: "codex fleet", userId: null, email: null, role: "viewer" as const, scopes: ["telemetry:write" as const] };
const attr = (key: string, stringValue: string) => ({ key, value: { stringValue } });

/** One Codex export: the cumulative count of pdf-forms injections since its process started. */
function codexExport(startMs: number, value: number): Uint8Array {
  const point = { attributes: [attr("skill", "pdf-forms"), attr("status", "ok")], startTimeUnixNano: `${startMs}000000`, timeUnixNano: `${Date.now()}000000`, asInt: String(value) };
  const metric = { name: "codex.skill.injected", sum: { aggregationTemporality: 2, isMonotonic: true, dataPoints: [point] } };
  const body = { resourceMetrics: [{ resource: { attributes: [attr("service.name", "codex_cli_rs"), attr("host.name", "box")] }, scopeMetrics: [{ metrics: [metric] }] }] };
  return new TextEncoder().encode(JSON.stringify(body));
}

describe("Codex's cumulative counter over a long audit", () => {
  it("each export reads the rows since its series started, not the skill's 100,000 earlier activations", async () => {
    const sink = auditSinkFor(t.db);
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (let i = 0; i < 100_000; i++) {
      sink.record({ type: "skill_activated", at: hourAgo, actor: { id: "u1" }, skill: "pdf-forms", outcome: "ok", source: { agent: "claude-code", host: `m${i % 50}` } });
    }
    flushAudit(t.db);
    const send = async (start: number, value: number) => (await ingest(t.db, sink, { signal: "metrics", encoding: "json", bytes: codexExport(start, value), principal })).accepted;
    const began = performance.now();
    let written = 0;
    // Thirty Codex processes (each a new series), each exporting twice: 1, then 3 injections in all.
    for (let i = 0; i < 30; i++) {
      const start = Date.now() - 1_000 - i;
      written += (await send(start, 1)) + (await send(start, 3));
    }
    const took = performance.now() - began;
    // Each export is one row (the second counts 2 injections in it).
    expect(written).toBe(30 * 2);
    // Reading back through 100,000 rows per point took 1.6 s here; along (skill, at) from the series' start, 30 ms.
    // A figure, not a gate (timings belong in npm run bench); map.test.ts checks the lookup's bound itself.
    console.log(`[measure] 60 Codex exports over 100,000 audit rows: ${took.toFixed(0)} ms`);
  });
});
