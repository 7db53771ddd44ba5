// Issue 35 item 6, over real HTTP on 127.0.0.1 against a real SQLite file: a counter point is one audit row with
// its count (ten points of 1e9 were 10,000 rows, nine such requests at once 90,000), and a token that writes
// more than its rows per minute gets 429 with Retry-After and nothing written, while another token goes on.
import { count, eq } from "drizzle-orm";
import { auditEvents } from "../../db/schema/audit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

process.env.OMNIFORGE_AUDIT_STDOUT = "0";

import { TELEMETRY_MAX_ROWS_PER_REQUEST, TELEMETRY_MAX_ROWS_PER_TOKEN_MINUTE } from "../domain/telemetry";
import { MemoryAuditSink } from "../runtime/audit/events";
import { auditSinkFor, flushAudit } from "../services/audit";
import { countActivations, timeSeries, topSkillsByActivation } from "../services/audit/queries";
import { createToken } from "../services/tokens";
import { createUser } from "../services/users/users";
import { serveFetch } from "../test-support/http-server";
import { tempDb } from "../test-support/temp-db";
import { handleOtlpRequest } from "./otel-route";

let t: ReturnType<typeof tempDb>;
let server: Awaited<ReturnType<typeof serveFetch>>;
let fleet: string;
let laptop: string;
const all = { kind: "all" } as const;

beforeAll(async () => {
  t = tempDb();
  const alice = await createUser(t.db, { email: "alice@x.io", role: "author", password: "password1" });
  const audit = { audit: new MemoryAuditSink(), actor: { id: alice.id } };
  fleet = (await createToken(t.db, { id: alice.id, role: "author" }, { name: "codex fleet", scopes: "telemetry:write" }, audit)).token;
  laptop = (await createToken(t.db, { id: alice.id, role: "author" }, { name: "laptop", scopes: "telemetry:write" }, audit)).token;
  server = await serveFetch((req) => handleOtlpRequest(req, "metrics", { db: t.db, audit: auditSinkFor(t.db) }));
});
afterAll(async () => {
  await server.close();
  await auditSinkFor(t.db).close();
  await t.cleanup();
});

const rowCount = async () => {
  await flushAudit(t.db);
  return (await t.db.select({ n: count() }).from(auditEvents).where(eq(auditEvents.type, "skill_activated")))[0]!.n;
};

/** One Codex export of delta points: `points` skills (named from `first`), each injected `each` times. */
function codexExport(points: number, each: number, first = 0): string {
  const dataPoints = Array.from({ length: points }, (_, i) => ({
    attributes: [{ key: "skill", value: { stringValue: `skill-${first + i}` } }],
    asInt: String(each),
    timeUnixNano: `${Date.now()}000000`,
  }));
  const metric = { name: "codex.skill.injected", sum: { aggregationTemporality: 1, isMonotonic: true, dataPoints } };
  return JSON.stringify({ resourceMetrics: [{ resource: { attributes: [{ key: "service.name", value: { stringValue: "codex_cli_rs" } }] }, scopeMetrics: [{ metrics: [metric] }] }] });
}

const post = (body: string, tk: string) => fetch(`${server.url}/api/otel/v1/metrics`, { method: "POST", headers: { Authorization: `Bearer ${tk}`, "content-type": "application/json" }, body });

describe("Codex's counter in bulk", () => {
  it("ten points of 1e9 from nine requests at once are 90 rows, and the audit's figures add their counts up", async () => {
    const before = await rowCount();
    const answers = await Promise.all(Array.from({ length: 9 }, () => post(codexExport(10, 1e9), laptop)));
    expect(answers.map((r) => r.status)).toEqual(Array(9).fill(200));
    expect(await rowCount() - before).toBe(90);
    expect(await countActivations(t.db, {}, all)).toBe(90 * 1e9);
    expect((await timeSeries(t.db, { type: "skill_activated" }, all)).points.reduce((n, p) => n + p.n, 0)).toBe(90 * 1e9);
    expect(await topSkillsByActivation(t.db, {}, all, 2)).toEqual([
      { skill: "skill-0", n: 9e9 },
      { skill: "skill-1", n: 9e9 },
    ]);
  });

  it("past its rows per minute a token gets 429 with Retry-After and nothing is written; another token is not held up", async () => {
    const full = TELEMETRY_MAX_ROWS_PER_TOKEN_MINUTE / TELEMETRY_MAX_ROWS_PER_REQUEST;
    for (let i = 0; i < full; i++) expect((await post(codexExport(TELEMETRY_MAX_ROWS_PER_REQUEST, 1, i * TELEMETRY_MAX_ROWS_PER_REQUEST), fleet)).status).toBe(200);
    const before = await rowCount();
    const refused = await post(codexExport(1, 1), fleet);
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(((await refused.json()) as { message: string }).message).toMatch(/more than 30000 audit events in a minute; nothing of this request was kept: send it again in \d+ s/);
    expect(await rowCount()).toBe(before);
    expect((await post(codexExport(1, 1), laptop)).status).toBe(200);
    expect(await rowCount()).toBe(before + 1);
  });
});
