// Accounts (issue #20): change one's password (other sessions end), an admin reset (one-time password, every
// session ends), and nobody disables or demotes themselves. Through the tRPC router on a real SQLite file.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { callerFor } from "../../test-support/caller";
import type { SessionUser } from "../../auth";
import { resolveDataHome } from "../../config";
import { MemoryAuditSink } from "../../runtime/audit/events";
import { tempDb } from "../../test-support/temp-db";
import { sessionUser, startSession } from "../auth/sessions";
import { verifyPassword } from "./password";
import { createUser, findUserById } from "./users";

let t: ReturnType<typeof tempDb>;
let audit: MemoryAuditSink;
beforeEach(() => {
  t = tempDb();
  audit = new MemoryAuditSink();
});
afterEach(() => t.cleanup());

const caller = (user: SessionUser) => callerFor({ db: t.db, dataHome: resolveDataHome({ OMNIFORGE_HOME: t.dir }), audit }, user);

describe("passwords and self-protection", () => {
  it("changing one's password needs the current one and ends every other session, not this one", async () => {
    const u = await createUser(t.db, { email: "ana@x.io", role: "author", password: "first-pass-1" });
    const here = await startSession(t.db, u.id, "10.0.0.1");
    const laptop = await startSession(t.db, u.id, "10.0.0.2");
    const me: SessionUser = { id: u.id, email: u.email, name: "", role: "author", sid: here };
    await expect(caller(me).user.changePassword({ current: "wrong-one", next: "second-pass-2" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/current password is not right/) });
    expect(audit.events.at(-1)).toMatchObject({ type: "password_changed", outcome: "refused" });
    await expect(caller(me).user.changePassword({ current: "first-pass-1", next: "short" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await caller(me).user.changePassword({ current: "first-pass-1", next: "second-pass-2" })).toEqual({ sessionsEnded: 1 });
    expect(await verifyPassword("second-pass-2", (await findUserById(t.db, u.id))!.passwordHash)).toBe(true);
    expect(await sessionUser(t.db, { userId: u.id, sid: here })).not.toBeNull();
    expect(await sessionUser(t.db, { userId: u.id, sid: laptop })).toBeNull();
    expect(JSON.stringify(audit.events)).not.toContain("second-pass-2");
  });

  it("an admin reset gives a one-time password once and ends every session of that user", async () => {
    const admin = await createUser(t.db, { email: "root@x.io", role: "admin", password: "admin-pass-1" });
    const u = await createUser(t.db, { email: "bo@x.io", role: "viewer", password: "viewer-pass-1" });
    const s = await startSession(t.db, u.id, "10.0.0.3");
    const asAdmin = caller({ id: admin.id, email: admin.email, name: "", role: "admin" });
    const r = await asAdmin.user.resetPassword({ id: u.id });
    expect(r.password).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(r.sessionsEnded).toBe(1);
    expect(await verifyPassword(r.password, (await findUserById(t.db, u.id))!.passwordHash)).toBe(true);
    expect(await sessionUser(t.db, { userId: u.id, sid: s })).toBeNull();
    expect(audit.events.at(-1)).toMatchObject({ type: "password_reset", details: { userId: u.id, sessionsEnded: 1 } });
    expect(JSON.stringify(audit.events)).not.toContain(r.password);
    await expect(caller({ id: u.id, email: u.email, name: "", role: "viewer" }).user.resetPassword({ id: admin.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(asAdmin.user.resetPassword({ id: admin.id })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("an admin cannot disable or demote themselves, even with another admin around", async () => {
    const a = await createUser(t.db, { email: "a@x.io", role: "admin", password: "admin-pass-1" });
    await createUser(t.db, { email: "b@x.io", role: "admin", password: "admin-pass-2" });
    const asA = caller({ id: a.id, email: a.email, name: "", role: "admin" });
    await expect(asA.user.update({ id: a.id, disabled: true })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/cannot disable yourself/) });
    await expect(asA.user.update({ id: a.id, role: "author" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await findUserById(t.db, a.id)).toMatchObject({ role: "admin", disabled: false });
    expect((await asA.user.update({ id: a.id, name: "Ada" })).name).toBe("Ada");
  });
});
