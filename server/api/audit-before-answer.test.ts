// A mutation's audit rows are in the database when its answer arrives (issue #38): a server killed right after
// answering must not take the record of an acknowledged change with it. Checked through a second connection, as
// another server (or an auditor) reads the table, with the console's real audit writer; on both databases.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvents } from "../../db/schema/audit";
import { resolveDataHome } from "../config";
import { auditSinkFor } from "../services/audit/sink";
import { callerFor } from "../test-support/caller";
import { secondConnection, tempDb } from "../test-support/temp-db";
import { useTestHome } from "../test-support/test-home";
import type { SessionUser } from "../auth";

describe("a mutation answers after its audit rows are written", () => {
  const t = useTestHome(tempDb);
  const admin: SessionUser = { id: "admin-id", email: "admin@x.io", name: "", role: "admin" };
  const author: SessionUser = { id: "author-id", email: "author@x.io", name: "", role: "author" };
  const caller = (user: SessionUser) => callerFor({ db: t.db, dataHome: resolveDataHome({ OMNIFORGE_HOME: t.dir }), audit: auditSinkFor(t.db) }, user);

  it("the change's row, and a refusal's, are readable from another connection the moment the answer comes", async () => {
    const other = secondConnection(t);
    try {
      await caller(admin).user.create({ email: "new@x.io", role: "author", password: "a-long-password" });
      // Nothing is left queued in this process: the answer waited for the write.
      expect(auditSinkFor(t.db).pending()).toBe(0);
      const created = await other.db.select({ details: auditEvents.details }).from(auditEvents).where(eq(auditEvents.type, "user_created"));
      expect(created.map((r) => JSON.parse(r.details!) as { email: string })).toMatchObject([{ email: "new@x.io" }]);

      await expect(caller(author).user.create({ email: "sneaky@x.io", role: "admin", password: "a-long-password" })).rejects.toThrow(/admin/);
      expect(auditSinkFor(t.db).pending()).toBe(0);
      const denied = await other.db.select({ actor: auditEvents.actorId }).from(auditEvents).where(eq(auditEvents.type, "access_denied"));
      expect(denied).toEqual([{ actor: "author-id" }]);
    } finally {
      await other.close();
    }
  });
});
