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
  callerFor({ db: t.db, dh: resolveDataHome({ OMNIFORGE_HOME: t.dir }), audit }, user);
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
    expect(err.message).toMatch(/email/i);
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
