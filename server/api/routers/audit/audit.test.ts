// The audit router through tRPC's caller, with a real database and injected sessions: the role rules are
// checked on the server, whatever a client sends.
import { createPublicKey } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { TRPCError } from "@trpc/server";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents } from "../../../../db/schema/audit";
import { resolveDataHome } from "../../../config";
import { checkpointsFromText } from "../../../services/audit/checkpoints";
import { AuditWriter } from "../../../services/audit/writer";
import { tempDb, type TempDb } from "../../../services/audit/test-support/audit";
import type { SessionUser } from "../../../auth";
import { createCallerFactory, createTRPCRouter } from "../../trpc";
import { auditRouter } from "./_router";

const createCaller = createCallerFactory(createTRPCRouter({ audit: auditRouter }));
let t: TempDb;
let writer: AuditWriter;

const users: Record<string, SessionUser> = {
  admin: { id: "u-admin", email: "admin@example.com", name: "Admin", role: "admin" },
  author: { id: "u-author", email: "author@example.com", name: "Author", role: "author" },
  viewer: { id: "u-viewer", email: "viewer@example.com", name: "Viewer", role: "viewer" },
};
const caller = (who: keyof typeof users) =>
  createCaller({ db: t.db, dataHome: resolveDataHome(), audit: writer, user: users[who]!, ip: "test" }).audit;

beforeAll(async () => {
  t = tempDb();
  writer = new AuditWriter(t.db, { stdout: false });
  writer.record({ type: "login", actor: { id: "u-author" }, outcome: "ok" });
  writer.record({ type: "skill_activated", actor: { id: "u-author" }, skill: "pdf", sessionId: "s1" });
  writer.record({ type: "tool_restriction_violated", actor: { id: "u-author" }, skill: "pdf", tool: "bash", sessionId: "s1", outcome: "refused" });
  writer.record({ type: "login", actor: { id: "u-admin" }, outcome: "ok" });
  writer.record({ type: "skill_activated", actor: { id: "u-admin" }, skill: "xlsx", sessionId: "s2" });
  await writer.flush();
});
afterAll(async () => {
  await writer.close();
  await t.cleanup();
});

describe("audit router", () => {
  it("refuses viewers, and records the refusal", async () => {
    await expect(caller("viewer").list({})).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(caller("viewer").summary({})).rejects.toBeInstanceOf(TRPCError);
    await writer.flush();
    const denied = await caller("admin").list({ type: "access_denied" });
    expect(denied.events.map((e) => [e.actorId, e.details?.procedure])).toEqual([
      ["u-viewer", "audit.summary"],
      ["u-viewer", "audit.list"],
    ]);
  });

  it("shows admins everything and authors only their own events", async () => {
    const adminTypes = (await caller("admin").list({ type: "login" })).events.map((e) => e.actorId);
    expect(adminTypes).toEqual(["u-admin", "u-author"]);
    const mine = await caller("author").list({});
    expect(new Set(mine.events.map((e) => e.actorId))).toEqual(new Set(["u-author"]));
    expect(mine.events).toHaveLength(3);
    // Asking for another user's events is not a way around the scope.
    expect((await caller("author").list({ user: "u-admin" })).events).toEqual([]);
    await expect(caller("author").get({ id: 4 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await caller("admin").get({ id: 4 })).type).toBe("login");
  });

  it("summarises, lists violations and verifies", async () => {
    const s = await caller("author").summary({});
    expect(s.count).toBe(3);
    expect(s.topSkills).toEqual([{ skill: "pdf", n: 1 }]);
    expect(s.scope).toBe("own");
    const v = await caller("admin").violations({});
    expect(v.events.map((e) => [e.sessionId, e.tool])).toEqual([["s1", "bash"]]);
    await expect(caller("author").verify()).rejects.toMatchObject({ code: "FORBIDDEN" });
    const ok = await caller("admin").verify();
    expect(ok).toMatchObject({ ok: true });
    await t.db.update(auditEvents).set({ skill: "docx" }).where(eq(auditEvents.id, 2));
    expect(await caller("admin").verify()).toMatchObject({ ok: false, brokenAt: 2, reason: "edited" });
  });

  it("gives admins the checkpoint key's public half, which verifies the checkpoint file without any secret", async () => {
    await expect(caller("author").checkpoints()).rejects.toMatchObject({ code: "FORBIDDEN" });
    writer.checkpointNow();
    const info = await caller("admin").checkpoints();
    expect(info.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(info.count).toBeGreaterThan(0);
    const text = fs.readFileSync(path.join(t.dir, "checkpoints.jsonl"), "utf8");
    const lines = checkpointsFromText(text, createPublicKey(info.publicKeyPem!));
    expect(lines.map((l) => l.problem)).toEqual(lines.map(() => null));
    expect(lines.at(-1)).toMatchObject({ seq: info.newest!.seq, rowId: info.newest!.rowId, key: info.key });
    // One changed character in a copy, and the public key alone says so.
    const forged = text.replace(/"rowId":(\d+)/, (_m, n) => `"rowId":${Number(n) + 1}`);
    expect(checkpointsFromText(forged, createPublicKey(info.publicKeyPem!))[0]!.problem).toMatch(/invalid signature/);
  });

  it("says how long events are kept; only admins see where archives go", async () => {
    const admin = await caller("admin").retention();
    expect(admin).toMatchObject({ days: null, archiveDir: resolveDataHome().archiveDir, lastArchive: null });
    expect(await caller("author").retention()).toEqual({ days: null, archiveDir: null, lastArchive: null });
    await expect(caller("viewer").retention()).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("rejects a malformed filter with a validation error naming the field", async () => {
    await expect(caller("admin").list({ from: "not a date" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: "From: not a date: not a date." });
  });

  it("refuses a range whose From is after its To, rather than answering 0 events", async () => {
    const from = Date.UTC(2026, 5, 2, 10);
    const to = Date.UTC(2026, 5, 1, 10);
    const inverted = "From (2026-06-02 10:00 UTC) is after To (2026-06-01 10:00 UTC), so no event can fall between them: swap the two dates.";
    for (const call of [() => caller("admin").summary({ from, to }), () => caller("admin").list({ from, to }), () => caller("admin").violations({ from, to })]) {
      await expect(call()).rejects.toMatchObject({ code: "BAD_REQUEST", message: inverted });
    }
    await expect(caller("admin").list({ from: to, to })).rejects.toMatchObject({ message: /the same moment/ });
    // Epoch milliseconds as the export link writes them, and ISO dates, in order: answered.
    await expect(caller("admin").list({ from: String(to), to: new Date(from).toISOString() })).resolves.toMatchObject({ events: [] });
  });
});
