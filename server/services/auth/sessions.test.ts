import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { authSessions } from "../../../db/schema";
import { callerFor } from "../../test-support/caller";
import type { SessionUser } from "../../auth";
import { resolveDataHome } from "../../config";
import { SESSION_IDLE_MAX_MS } from "../../domain/limits";
import { MemoryAuditSink } from "../../runtime/audit/events";
import { tempDb } from "../../test-support/temp-db";
import { createUser, updateUser } from "../users/users";
import { endSession, sessionUser, startSession } from "./sessions";

let t: ReturnType<typeof tempDb>;
let audit: MemoryAuditSink;
let ann: { id: string; email: string };
let boss: SessionUser;
beforeEach(async () => {
  t = tempDb();
  audit = new MemoryAuditSink();
  ann = await createUser(t.db, { email: "ann@x.io", role: "author", password: "password1" });
  const b = await createUser(t.db, { email: "boss@x.io", role: "admin", password: "password1" });
  boss = { id: b.id, email: b.email, name: "", role: "admin" };
});
afterEach(() => t.cleanup());

const caller = (user: SessionUser) =>
  callerFor({ db: t.db, dataHome: resolveDataHome({ OMNIFORGE_HOME: t.dir }), audit }, user);

describe("server-side sessions", () => {
  it("a token copied before sign-out is refused after it", async () => {
    const sid = await startSession(t.db, ann.id, "127.0.0.1");
    const copied = { userId: ann.id, sid };
    expect(await sessionUser(t.db, copied)).toMatchObject({ id: ann.id, role: "author" });
    expect(await endSession(t.db, sid, "sign_out")).toBe(true);
    expect(await sessionUser(t.db, copied)).toBeNull();
    expect(await endSession(t.db, sid, "sign_out")).toBe(false);
  });

  it("a token without a session id (issued before sessions were recorded), or naming another user's session, is refused", async () => {
    const sid = await startSession(t.db, ann.id, "127.0.0.1");
    expect(await sessionUser(t.db, { userId: ann.id })).toBeNull();
    expect(await sessionUser(t.db, { userId: boss.id, sid })).toBeNull();
    expect(await sessionUser(t.db, { userId: ann.id, sid: "made-up" })).toBeNull();
  });

  it("a session idle for longer than the cookie lives ends; one in use stays open", async () => {
    const t0 = new Date("2026-01-01T08:00:00Z");
    const sid = await startSession(t.db, ann.id, "127.0.0.1", t0);
    const at = (ms: number) => new Date(t0.getTime() + ms);
    expect(await sessionUser(t.db, { userId: ann.id, sid }, at(SESSION_IDLE_MAX_MS - 1000))).not.toBeNull();
    // That request counted as use: the session lives on past the first eight hours.
    expect(await sessionUser(t.db, { userId: ann.id, sid }, at(SESSION_IDLE_MAX_MS + 60_000))).not.toBeNull();
    expect(await sessionUser(t.db, { userId: ann.id, sid }, at(3 * SESSION_IDLE_MAX_MS))).toBeNull();
  });

  it("rows of sessions over for more than 30 days are dropped when a new one starts; recent ones stay", async () => {
    const t0 = new Date("2026-01-01T08:00:00Z");
    const old = await startSession(t.db, ann.id, "127.0.0.1", t0);
    await endSession(t.db, old, "sign_out", t0);
    const idle = await startSession(t.db, ann.id, "127.0.0.1", t0);
    const recent = await startSession(t.db, ann.id, "127.0.0.1", new Date(t0.getTime() + 29 * 24 * 3600_000));
    await endSession(t.db, recent, "sign_out", new Date(t0.getTime() + 29 * 24 * 3600_000));
    await startSession(t.db, boss.id, "127.0.0.1", new Date(t0.getTime() + 31 * 24 * 3600_000));
    const ids = (await t.db.select({ id: authSessions.id }).from(authSessions)).map((r) => r.id);
    expect(ids).not.toContain(old);
    expect(ids).not.toContain(idle);
    expect(ids).toContain(recent);
    expect(ids).toHaveLength(2);
  });

  it("disabling a user ends their open sessions at once, audited; enabling them again does not revive them", async () => {
    const a = await startSession(t.db, ann.id, "127.0.0.1");
    const b = await startSession(t.db, ann.id, "10.0.0.2");
    await updateUser(t.db, ann.id, { disabled: true }, { audit: audit, actor: boss });
    await updateUser(t.db, ann.id, { disabled: false }, { audit: audit, actor: boss });
    expect(await sessionUser(t.db, { userId: ann.id, sid: a })).toBeNull();
    expect(await sessionUser(t.db, { userId: ann.id, sid: b })).toBeNull();
    expect(audit.events.filter((e) => e.type === "sessions_revoked")).toMatchObject([
      { actor: { id: boss.id }, details: { userId: ann.id, sessions: 2, reason: "user_disabled" } },
    ]);
  });

  it("an admin's sign out everywhere ends every session of that user only, and is audited", async () => {
    const a = await startSession(t.db, ann.id, "127.0.0.1");
    const b = await startSession(t.db, ann.id, "10.0.0.2");
    const mine = await startSession(t.db, boss.id, "127.0.0.1");
    await expect(caller(boss).user.signOutEverywhere({ id: ann.id })).resolves.toEqual({ sessionsEnded: 2 });
    expect(await sessionUser(t.db, { userId: ann.id, sid: a })).toBeNull();
    expect(await sessionUser(t.db, { userId: ann.id, sid: b })).toBeNull();
    expect(await sessionUser(t.db, { userId: boss.id, sid: mine })).not.toBeNull();
    expect(audit.events.at(-1)).toMatchObject({
      type: "sessions_revoked",
      actor: { id: boss.id },
      details: { userId: ann.id, email: "ann@x.io", sessions: 2, reason: "signed_out_everywhere" },
    });
    // Anyone else is refused, and that is audited too.
    const asAuthor: SessionUser = { id: ann.id, email: ann.email, name: "", role: "author" };
    await expect(caller(asAuthor).user.signOutEverywhere({ id: boss.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await sessionUser(t.db, { userId: boss.id, sid: mine })).not.toBeNull();
    expect(audit.events.at(-1)).toMatchObject({ type: "access_denied", details: { procedure: "user.signOutEverywhere" } });
  });
});
