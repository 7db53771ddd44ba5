import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbKind } from "../../../db/dialect";
import { users } from "../../../db/schema/users";
import { countStatements } from "../../../db/test-support/statements";
import type { AuditEvent } from "../../runtime/audit/events";
import { ZListInput } from "../../api/routers/audit/list.schema";
import { AUDIT_PAGE_MAX } from "../../domain/limits";
import { auditFilterSchema, pageSchema, type AuditScope } from "./filter";
import {
  countEvents,
  eventTypes,
  getEvent,
  listEvents,
  refusalsBySkillAndTool,
  scriptRunsByExitStatus,
  timeSeries,
  topSkillsByActivation,
  violations,
} from "./queries";
import { tempDb, type TempDb } from "./test-support/audit";
import { AuditWriter } from "./writer";

let t: TempDb;
const H = 3_600_000;
const base = Date.UTC(2026, 2, 1, 0, 0, 0);
const all: AuditScope = { kind: "all" };

// A small, hand-made log: every expectation below can be counted from this list by eye.
const events: AuditEvent[] = [
  { type: "login", at: new Date(base), actor: { id: "alice" }, outcome: "ok" },
  { type: "skill_activated", at: new Date(base + 1000), actor: { id: "alice" }, sessionId: "s1", skill: "pdf", layer: "project", model: "offline" },
  { type: "tool_call", at: new Date(base + 2000), actor: { id: "alice" }, sessionId: "s1", skill: "pdf", tool: "read_file", outcome: "allowed", model: "offline" },
  { type: "tool_restriction_violated", at: new Date(base + 3000), actor: { id: "alice" }, sessionId: "s1", skill: "pdf", tool: "bash", outcome: "refused" },
  { type: "script_executed", at: new Date(base + 4000), actor: { id: "alice" }, sessionId: "s1", skill: "pdf", tool: "run_script", outcome: "ok", details: { exitCode: 0 } },
  { type: "skill_activated", at: new Date(base + H), actor: { id: "bob" }, sessionId: "s2", skill: "pdf", layer: "enterprise", model: "gpt" },
  { type: "skill_activated", at: new Date(base + H + 1000), actor: { id: "bob" }, sessionId: "s2", skill: "xlsx", layer: "project", model: "gpt" },
  { type: "script_read_blocked", at: new Date(base + H + 2000), actor: { id: "bob" }, sessionId: "s2", skill: "xlsx", tool: "read_file", outcome: "refused" },
  { type: "script_executed", at: new Date(base + H + 3000), actor: { id: "bob" }, sessionId: "s2", skill: "xlsx", tool: "run_script", outcome: "failed", details: { exitCode: 2 } },
  { type: "script_executed", at: new Date(base + H + 4000), actor: { id: "bob" }, sessionId: "s2", skill: "xlsx", tool: "run_script", outcome: "failed", details: { exitCode: 137, timedOut: true } },
  { type: "tool_call", at: new Date(base + 2 * H), actor: { id: "bob" }, sessionId: "s2", skill: "xlsx", tool: "bash", outcome: "refused" },
  { type: "skill_activated", at: new Date(base + 2 * H + 1), actor: { id: "alice" }, sessionId: "s3", skill: "pdf", layer: "project", model: "offline" },
  { type: "script_executed", at: new Date(base + 2 * H + 2), actor: { id: "alice" }, sessionId: "s3", skill: "pdf", outcome: "refused", details: { exitCode: null } },
  { type: "login_failed", at: new Date(base + 25 * H), actor: { id: "anonymous" }, outcome: "refused" },
];

beforeAll(async () => {
  t = tempDb();
  const w = new AuditWriter(t.db, { stdout: false });
  w.recordMany(events);
  await w.close();
});
afterAll(() => t.cleanup());

const ids = (r: { events: { id: number }[] }) => r.events.map((e) => e.id);
const f = (x: Record<string, unknown>) => auditFilterSchema.parse(x);

describe("audit queries", () => {
  it("lists newest first and applies each filter", async () => {
    expect(ids(await listEvents(t.db, {}, all))).toEqual([14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(ids(await listEvents(t.db, f({ type: "skill_activated" }), all))).toEqual([12, 7, 6, 2]);
    expect(ids(await listEvents(t.db, f({ skill: "xlsx" }), all))).toEqual([11, 10, 9, 8, 7]);
    expect(ids(await listEvents(t.db, f({ layer: "project" }), all))).toEqual([12, 7, 2]);
    expect(ids(await listEvents(t.db, f({ user: "bob" }), all))).toEqual([11, 10, 9, 8, 7, 6]);
    expect(ids(await listEvents(t.db, f({ session: "s1" }), all))).toEqual([5, 4, 3, 2]);
    expect(ids(await listEvents(t.db, f({ model: "gpt" }), all))).toEqual([7, 6]);
    expect(ids(await listEvents(t.db, f({ outcome: "refused" }), all))).toEqual([14, 13, 11, 8, 4]);
    expect(ids(await listEvents(t.db, f({ outcome: "failed", skill: "xlsx" }), all))).toEqual([10, 9]);
    expect(ids(await listEvents(t.db, f({ from: new Date(base + H).toISOString(), to: String(base + 2 * H) }), all))).toEqual([10, 9, 8, 7, 6]);
  });

  it("shows the person behind an actor id recorded without an email (playground and agent events)", async () => {
    await t.db.insert(users).values({ id: "alice", email: "alice@x.io", name: "", role: "author", passwordHash: "x", disabled: false, createdAt: new Date(0), updatedAt: new Date(0) });
    const page = await listEvents(t.db, f({ user: "alice" }), all);
    expect(page.events.every((e) => e.actorId === "alice" && e.actorEmail === "alice@x.io")).toBe(true);
    expect((await listEvents(t.db, f({ user: "bob" }), all)).events.every((e) => e.actorEmail === null)).toBe(true);
    await t.db.delete(users).where(eq(users.id, "alice"));
  });

  it("pages with a cursor without gaps or repeats", async () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await listEvents(t.db, {}, all, { cursor, limit: 4 });
      seen.push(...ids(page));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual([14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
  });

  it("gives every call its own values when the same filter fields come again", async () => {
    // The same fields with other values, one after another (the page's query is prepared once per set of fields).
    expect(ids(await listEvents(t.db, f({ skill: "pdf" }), all))).toEqual([13, 12, 6, 5, 4, 3, 2]);
    expect(ids(await listEvents(t.db, f({ skill: "xlsx" }), all))).toEqual([11, 10, 9, 8, 7]);
    expect(ids(await listEvents(t.db, f({ skill: "nothing" }), all))).toEqual([]);
    expect(ids(await listEvents(t.db, f({ skill: "pdf" }), { kind: "own", actorId: "bob" }))).toEqual([6]);
    expect(ids(await listEvents(t.db, f({ skill: "pdf" }), { kind: "own", actorId: "alice" }))).toEqual([13, 12, 5, 4, 3, 2]);
    expect(ids(await listEvents(t.db, f({ source: "console" }), all, { limit: 2 }))).toEqual([14, 1]);
    expect(ids(await listEvents(t.db, f({ source: "playground" }), all, { limit: 2 }))).toEqual([13, 12]);
    expect(ids(await listEvents(t.db, f({ source: "claude-code" }), all))).toEqual([]);
    const pdf = await listEvents(t.db, f({ skill: "pdf" }), all, { limit: 3 });
    const xlsx = await listEvents(t.db, f({ skill: "xlsx" }), all, { limit: 2 });
    expect(ids(await listEvents(t.db, f({ skill: "pdf" }), all, { cursor: pdf.nextCursor!, limit: 3 }))).toEqual([5, 4, 3]);
    expect(ids(await listEvents(t.db, f({ skill: "xlsx" }), all, { cursor: xlsx.nextCursor!, limit: 2 }))).toEqual([9, 8]);
  });

  it("scopes an author to their own events, whatever the filter asks", async () => {
    const alice: AuditScope = { kind: "own", actorId: "alice" };
    expect(ids(await listEvents(t.db, {}, alice))).toEqual([13, 12, 5, 4, 3, 2, 1]);
    expect(ids(await listEvents(t.db, f({ user: "bob" }), alice))).toEqual([]);
    expect(await countEvents(t.db, {}, alice)).toBe(7);
    expect(await getEvent(t.db, 6, alice)).toBeNull();
    expect((await getEvent(t.db, 5, alice))?.details).toEqual({ exitCode: 0 });
    expect(await topSkillsByActivation(t.db, {}, alice)).toEqual([{ skill: "pdf", n: 2 }]);
    expect((await violations(t.db, {}, alice)).events.map((e) => e.id)).toEqual([4]);
  });

  it("counts and aggregates", async () => {
    expect(await countEvents(t.db, {}, all)).toBe(14);
    expect(await countEvents(t.db, f({ type: "script_executed" }), all)).toBe(4);
    expect(await topSkillsByActivation(t.db, {}, all)).toEqual([
      { skill: "pdf", n: 3 },
      { skill: "xlsx", n: 1 },
    ]);
    expect(await refusalsBySkillAndTool(t.db, {}, all)).toEqual([
      { skill: "pdf", tool: null, n: 1 },
      { skill: "pdf", tool: "bash", n: 1 },
      { skill: "xlsx", tool: "bash", n: 1 },
      { skill: "xlsx", tool: "read_file", n: 1 },
    ]);
    expect(await scriptRunsByExitStatus(t.db, {}, all)).toEqual(
      expect.arrayContaining([
        { status: "exit 0", n: 1 },
        { status: "exit 2", n: 1 },
        { status: "timeout", n: 1 },
        { status: "refused", n: 1 },
      ]),
    );
    expect(await scriptRunsByExitStatus(t.db, {}, all)).toHaveLength(4);
  });

  it("buckets events over time by type", async () => {
    const hourly = await timeSeries(t.db, f({ to: base + 3 * H }), all, "hour");
    expect(hourly.bucket).toBe("hour");
    expect(hourly.points).toEqual([
      { t: base, type: "login", n: 1 },
      { t: base, type: "script_executed", n: 1 },
      { t: base, type: "skill_activated", n: 1 },
      { t: base, type: "tool_call", n: 1 },
      { t: base, type: "tool_restriction_violated", n: 1 },
      { t: base + H, type: "script_executed", n: 2 },
      { t: base + H, type: "script_read_blocked", n: 1 },
      { t: base + H, type: "skill_activated", n: 2 },
      { t: base + 2 * H, type: "script_executed", n: 1 },
      { t: base + 2 * H, type: "skill_activated", n: 1 },
      { t: base + 2 * H, type: "tool_call", n: 1 },
    ]);
    const daily = await timeSeries(t.db, {}, all, "day");
    expect(daily.points.filter((p) => p.t === base + 86_400_000)).toEqual([{ t: base + 86_400_000, type: "login_failed", n: 1 }]);
  });

  it("buckets from a start inside an hour, asking PostgreSQL once per event type rather than once per bucket", async () => {
    const types = (await eventTypes(t.db)).length;
    const statements = countStatements(t.db, /audit_events/);
    const series = await timeSeries(t.db, f({ from: base + H / 2, to: base + 72 * H }), all, "hour");
    statements.stop();
    expect(series.points).toEqual([
      { t: base + H, type: "script_executed", n: 2 },
      { t: base + H, type: "script_read_blocked", n: 1 },
      { t: base + H, type: "skill_activated", n: 2 },
      { t: base + 2 * H, type: "script_executed", n: 1 },
      { t: base + 2 * H, type: "skill_activated", n: 1 },
      { t: base + 2 * H, type: "tool_call", n: 1 },
      { t: base + 25 * H, type: "login_failed", n: 1 },
    ]);
    // 25 hours by 7 types: 175 statements asked per bucket. SQLite still asks so (in-process range counts on its
    // index, cheaper there than a grouped pass: queries.ts); PostgreSQL the span, the types and one per type.
    if (dbKind(t.db) === "postgres") expect(statements.count).toBeLessThanOrEqual(types + 2);
    else expect(statements.count).toBeGreaterThan(types * 25);
  });

  it("lists violations (refused tool calls and blocked script reads) with their sessions", async () => {
    const v = await violations(t.db, {}, all);
    expect(v.events.map((e) => [e.id, e.type, e.sessionId])).toEqual([
      [8, "script_read_blocked", "s2"],
      [4, "tool_restriction_violated", "s1"],
    ]);
    const p1 = await violations(t.db, {}, all, { limit: 1 });
    expect(p1.events.map((e) => e.id)).toEqual([8]);
    expect((await violations(t.db, {}, all, { limit: 1, cursor: p1.nextCursor! })).events.map((e) => e.id)).toEqual([4]);
    expect((await violations(t.db, {}, all, { limit: 1, cursor: p1.nextCursor! })).nextCursor).toBeNull();
    expect((await violations(t.db, f({ session: "s1" }), all)).events.map((e) => e.id)).toEqual([4]);
  });

  it("rejects a bad filter with a clear message", () => {
    expect(() => auditFilterSchema.parse({ from: "yesterday-ish" })).toThrow(/not a date/);
    expect(() => auditFilterSchema.parse({ type: "x'; DROP TABLE audit_events; --" })).toThrow(/lower-case/);
    expect(() => auditFilterSchema.parse({ outcome: "maybe" })).toThrow();
  });

  it("takes the same largest page through the API as in the service, and no larger", () => {
    expect(ZListInput.parse({ limit: AUDIT_PAGE_MAX }).limit).toBe(AUDIT_PAGE_MAX);
    expect(pageSchema.parse({ limit: AUDIT_PAGE_MAX }).limit).toBe(AUDIT_PAGE_MAX);
    expect(() => ZListInput.parse({ limit: AUDIT_PAGE_MAX + 1 })).toThrow();
    expect(() => pageSchema.parse({ limit: AUDIT_PAGE_MAX + 1 })).toThrow();
  });
});
