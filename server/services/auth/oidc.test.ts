import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseRoleMap } from "../../domain/oidc";
import { MemoryAuditSink } from "../../runtime/audit/events";
import { tempDb } from "../../test-support/temp-db";
import { createUser, findUserById, updateUser } from "../users/users";
import { LAST_ADMIN_KEPT, oidcSignIn, type OidcIdentity } from "./oidc";
import { sessionUser } from "./sessions";

// The step after the provider's answer is checked, on a real SQLite file: who the person is, their role, refusals.
let t: ReturnType<typeof tempDb>;
let audit: MemoryAuditSink;
beforeEach(() => {
  t = tempDb();
  audit = new MemoryAuditSink();
});
afterEach(() => t.cleanup());

const ISSUER = "https://idp.example";
const who = (over: Partial<OidcIdentity> = {}): OidcIdentity => ({ issuer: ISSUER, subject: "s-1", email: "ann@corp.example", groups: [], ...over });
const map = parseRoleMap("admins=admin, eng=author");
const signIn = (w: OidcIdentity, m = map) => oidcSignIn(t.db, audit, w, m, "10.0.0.1");

describe("oidcSignIn", () => {
  it("opens a server-side session for the user and takes the highest mapped role", async () => {
    const r = await signIn(who({ groups: ["eng", "admins", "unmapped"] }));
    if (!r.ok) throw new Error(r.message);
    expect(r.user).toMatchObject({ email: "ann@corp.example", role: "admin" });
    expect(await sessionUser(t.db, { userId: r.user.id, sid: r.sid })).toMatchObject({ id: r.user.id, role: "admin" });
  });

  it("knows a person by issuer and subject: their email may change, and another subject naming a taken email is not them", async () => {
    const first = await signIn(who({ groups: ["eng"] }));
    const moved = await signIn(who({ email: "ann.new@corp.example", groups: ["eng"] }));
    expect(moved.ok && first.ok && moved.user.id === first.user.id).toBe(true);
    expect(moved.ok && moved.user.email).toBe("ann.new@corp.example");
    // Another subject naming an email a console user already has, unverified: refused, nothing joined.
    const other = await signIn(who({ subject: "s-2", email: "ann.new@corp.example", emailVerified: false }));
    expect(other).toMatchObject({ ok: false, reason: "email_unverified" });
    expect(audit.events.at(-1)).toMatchObject({ type: "login_failed", details: { reason: "email_unverified", subject: "s-2", issuer: ISSUER } });
  });

  it("joins an existing password user only on a verified email", async () => {
    const bo = await createUser(t.db, { email: "bo@corp.example", role: "author", password: "password1" });
    expect(await signIn(who({ subject: "bo", email: "BO@corp.example" }))).toMatchObject({ ok: false, reason: "email_unverified" });
    const r = await signIn(who({ subject: "bo", email: "bo@corp.example", emailVerified: true, groups: ["eng"] }));
    expect(r).toMatchObject({ ok: true, user: { id: bo.id, role: "author" } });
  });

  it("without a role map leaves roles to the console: a new person is a viewer, a role set in the console stays", async () => {
    const none = parseRoleMap("");
    const r = await signIn(who({ groups: ["admins"] }), none);
    if (!r.ok) throw new Error(r.message);
    expect(r.user.role).toBe("viewer");
    await updateUser(t.db, r.user.id, { role: "author" });
    await signIn(who({ groups: [] }), none);
    expect((await findUserById(t.db, r.user.id))?.role).toBe("author");
  });

  it("refuses a disabled user and a first sign-in without an email, opening no session", async () => {
    await createUser(t.db, { email: "keeper@corp.example", role: "admin", password: "password1" });
    const r = await signIn(who({ groups: ["eng"] }));
    if (!r.ok) throw new Error(r.message);
    await updateUser(t.db, r.user.id, { disabled: true });
    expect(await sessionUser(t.db, { userId: r.user.id, sid: r.sid })).toBeNull();
    expect(await signIn(who({ groups: ["admins"] }))).toMatchObject({ ok: false, reason: "disabled" });
    expect((await findUserById(t.db, r.user.id))?.role).toBe("author");
    expect(await signIn(who({ subject: "s-9", email: undefined }))).toMatchObject({ ok: false, reason: "no_email" });
  });
});

describe("the last active administrator at sign-in (issue 35)", () => {
  it("keeps the admin role the provider's groups no longer give, with the reason in the audit, and opens the session", async () => {
    const first = await signIn(who({ groups: ["admins"] }));
    if (!first.ok) throw new Error(first.message);
    const r = await signIn(who({ groups: ["eng"], name: "Ann" }));
    expect(r).toMatchObject({ ok: true, user: { id: first.user.id, role: "admin", name: "Ann" } });
    expect((await findUserById(t.db, first.user.id))?.role).toBe("admin");
    const refused = audit.events.filter((e) => e.type === "user_updated" && e.outcome === "refused");
    expect(refused).toEqual([
      expect.objectContaining({ actor: { id: first.user.id, email: "ann@corp.example" }, details: expect.objectContaining({ rule: "last-admin", role: { kept: "admin", groupsGive: "author" }, reason: LAST_ADMIN_KEPT, issuer: ISSUER }) }),
    ]);
    // The name still follows the provider; only the role was kept.
    expect(audit.events.filter((e) => e.type === "user_updated" && e.outcome === "ok").at(-1)?.details).toMatchObject({ after: { role: "admin", name: "Ann" } });
  });

  it("demotes as the groups say once another active administrator exists, and a disabled one does not count", async () => {
    const first = await signIn(who({ groups: ["admins"] }));
    if (!first.ok) throw new Error(first.message);
    const other = await createUser(t.db, { email: "root@corp.example", role: "admin", password: "password1" });
    await updateUser(t.db, other.id, { disabled: true });
    expect(await signIn(who({ groups: ["eng"] }))).toMatchObject({ ok: true, user: { role: "admin" } });
    await updateUser(t.db, other.id, { disabled: false });
    expect(await signIn(who({ groups: ["eng"] }))).toMatchObject({ ok: true, user: { role: "author" } });
    expect(audit.events.filter((e) => e.type === "user_updated" && e.outcome === "refused")).toHaveLength(1);
  });
});

describe("parseRoleMap", () => {
  it("reads group=role pairs (a group may hold '='), and names the entry that is not one", () => {
    expect([...parseRoleMap(" admins=admin ,, cn=eng = author ")]).toEqual([["admins", "admin"], ["cn=eng", "author"]]);
    expect(() => parseRoleMap("admins=admin, eng")).toThrow('"eng" is not group=role');
    expect(() => parseRoleMap("admins=root")).toThrow("the role must be one of viewer, author, admin");
  });
});
