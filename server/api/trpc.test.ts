import { TRPCError } from "@trpc/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveDataHome } from "../config";
import { MemoryAuditSink } from "../runtime/audit/events";
import { tempDb } from "../test-support/temp-db";
import { createUser } from "../services/users/users";
import { callerFor } from "../test-support/caller";
import type { SessionUser } from "../auth";

let t: ReturnType<typeof tempDb>;
let audit: MemoryAuditSink;
beforeEach(() => {
  t = tempDb();
  audit = new MemoryAuditSink();
});
afterEach(() => t.cleanup());

const caller = (user: SessionUser | null) =>
  callerFor({ db: t.db, dataHome: resolveDataHome({ OMNIFORGE_HOME: t.dir }), audit }, user);
const as = (role: SessionUser["role"]): SessionUser => ({ id: `${role}-id`, email: `${role}@x.io`, name: "", role });

describe("procedures by role", () => {
  it("health is public; everything else needs a session", async () => {
    await expect(caller(null).health.check()).resolves.toMatchObject({ status: "ok", database: "ok" });
    await expect(caller(null).user.me()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("a viewer or author calling an admin procedure gets FORBIDDEN, and the refusal is logged", async () => {
    for (const role of ["viewer", "author"] as const) {
      const err = await caller(as(role)).user.list().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TRPCError);
      expect((err as TRPCError).code).toBe("FORBIDDEN");
    }
    expect(audit.events.filter((e) => e.type === "access_denied")).toHaveLength(2);
    expect(audit.events[0]).toMatchObject({ outcome: "refused", details: { procedure: "user.list", required: "admin" } });
  });

  it("bad input is a BAD_REQUEST with the field named, never a 500", async () => {
    const err = (await caller(as("admin"))
      .user.create({ email: "not-an-email", role: "author", password: "x" })
      .catch((e: unknown) => e)) as TRPCError;
    expect(err.code).toBe("BAD_REQUEST");
    expect(err.message).toBe("Email: enter an address such as name@example.com. Password: at least 8 characters.");
  });

  it("an admin creates a user; a duplicate is a CONFLICT", async () => {
    await createUser(t.db, { email: "admin@x.io", role: "admin", password: "password1" });
    const u = await caller(as("admin")).user.create({ email: "new@x.io", role: "author", password: "password1" });
    expect(u?.role).toBe("author");
    await expect(caller(as("admin")).user.create({ email: "new@x.io", role: "author", password: "password1" })).rejects.toMatchObject({
      code: "CONFLICT",
    });
  });
});

describe("a refused input is one plain line naming the field", () => {
  const refusal = (p: Promise<unknown>) => p.then(() => "accepted", (e: TRPCError) => `${e.code} ${e.message}`);

  it("users: a long name, a blank name, a password of spaces, an undeliverable address", async () => {
    const admin = caller(as("admin"));
    const ok = { email: "new@x.io", role: "author" as const, password: "password1" };
    expect(await refusal(admin.user.create({ ...ok, name: "n".repeat(5000) }))).toBe("BAD_REQUEST Name: at most 120 characters.");
    expect(await refusal(admin.user.create({ ...ok, name: "   " }))).toBe("BAD_REQUEST Name: only spaces; type a name or leave the field empty.");
    expect(await refusal(admin.user.create({ ...ok, password: "        " }))).toBe("BAD_REQUEST Password: not only spaces.");
    expect(await refusal(admin.user.create({ ...ok, email: `${"a".repeat(300)}@x.io` }))).toBe(
      "BAD_REQUEST Email: the part before the @ has 300 characters; mail systems take at most 64.",
    );
    expect(await refusal(admin.user.create({ ...ok, email: `${"a".repeat(61)}@${"d".repeat(190)}.io` }))).toBe(
      "BAD_REQUEST Email: 255 characters; an address has at most 254.",
    );
    expect(await refusal(admin.user.update({ id: "x", name: "  " }))).toBe("BAD_REQUEST Name: only spaces; type a name or leave the field empty.");
    expect(await refusal(caller(as("author")).user.changePassword({ current: "password1", next: "         " }))).toBe("BAD_REQUEST Password: not only spaces.");
    // The longest address mail systems carry, an empty name and a password with spaces inside are fine.
    const longest = `${"a".repeat(64)}@${"d".repeat(186)}.io`;
    expect(longest).toHaveLength(254);
    expect(await admin.user.create({ ...ok, email: longest, name: "" })).toMatchObject({ email: longest, name: "" });
    expect(await admin.user.create({ ...ok, email: "spaces@x.io", password: "  pass  word  " })).toMatchObject({ email: "spaces@x.io" });
  });

  it("policies: a blank or overlong name to block", async () => {
    const admin = caller(as("admin"));
    expect(await refusal(admin.policy.change({ op: "block", name: "  " }))).toBe("BAD_REQUEST Name: cannot be empty.");
    expect(await refusal(admin.policy.change({ op: "block", name: "x".repeat(1025) }))).toBe("BAD_REQUEST Name: at most 1024 characters.");
  });
});
