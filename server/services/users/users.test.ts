import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MemoryAuditSink } from "../../runtime/audit/events";
import { tempDb } from "../../test-support/temp-db";
import { verifyPassword } from "./password";
import { createUser, findUserByEmail, listUsers, updateUser, UserError } from "./users";

let t: ReturnType<typeof tempDb>;
beforeEach(() => (t = tempDb()));
afterEach(() => t.cleanup());

describe("users", () => {
  it("stores a bcrypt hash, never the password, and lowercases the email", async () => {
    const u = await createUser(t.db, { email: "Ada@Example.com", role: "author", password: "correct horse" });
    expect(u.email).toBe("ada@example.com");
    expect(u).not.toHaveProperty("passwordHash");
    const row = (await findUserByEmail(t.db, "ADA@example.com"))!;
    expect(row.passwordHash).not.toContain("correct horse");
    expect(await verifyPassword("correct horse", row.passwordHash)).toBe(true);
    expect(await verifyPassword("wrong", row.passwordHash)).toBe(false);
  });

  it("refuses a second user with the same email in any case", async () => {
    await createUser(t.db, { email: "a@x.io", role: "viewer", password: "password1" });
    await expect(createUser(t.db, { email: "A@X.IO", role: "admin", password: "password2" })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    expect(await listUsers(t.db)).toHaveLength(1);
  });

  it("never lets the last active admin be demoted or disabled", async () => {
    const admin = await createUser(t.db, { email: "root@x.io", role: "admin", password: "password1" });
    await expect(updateUser(t.db, admin.id, { role: "author" })).rejects.toThrow(UserError);
    await expect(updateUser(t.db, admin.id, { disabled: true })).rejects.toThrow(/last active administrator/);
    expect((await findUserByEmail(t.db, "root@x.io"))!.role).toBe("admin");

    // With a second admin, the first may step down; then the second is the last one.
    const second = await createUser(t.db, { email: "two@x.io", role: "admin", password: "password1" });
    expect((await updateUser(t.db, admin.id, { role: "viewer" })).role).toBe("viewer");
    await expect(updateUser(t.db, second.id, { disabled: true })).rejects.toThrow(/last active administrator/);
  });

  it("a disabled admin does not count as the remaining admin", async () => {
    const a = await createUser(t.db, { email: "a@x.io", role: "admin", password: "password1" });
    const b = await createUser(t.db, { email: "b@x.io", role: "admin", password: "password1" });
    await updateUser(t.db, b.id, { disabled: true });
    await expect(updateUser(t.db, a.id, { role: "author" })).rejects.toThrow(UserError);
  });

  it("records who changed what, with before and after", async () => {
    const audit = new MemoryAuditSink();
    const actor = { id: "admin-1", email: "admin@x.io" };
    const u = await createUser(t.db, { email: "w@x.io", role: "viewer", password: "password1" }, { audit, actor });
    await updateUser(t.db, u.id, { role: "author" }, { audit, actor });
    expect(audit.events.map((e) => e.type)).toEqual(["user_created", "user_updated"]);
    // Like every other change that went through: the dashboard's Outcome filter "ok" finds them.
    expect(audit.events.map((e) => e.outcome)).toEqual(["ok", "ok"]);
    expect(audit.events[1]!.details).toMatchObject({ before: { role: "viewer" }, after: { role: "author" } });
    expect(JSON.stringify(audit.events)).not.toContain("password1");
  });
});
