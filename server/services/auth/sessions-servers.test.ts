// Two console servers on one database (issue #38): each is its own connection, and a change made through one is what
// the other's very next request reads (the session's one round trip carries the role and the tenants). Runs on both
// databases (npm run test:pg).
import { describe, expect, it } from "vitest";
import { MemoryAuditSink } from "../../runtime/audit/events";
import { secondConnection, tempDb } from "../../test-support/temp-db";
import { useTestHome } from "../../test-support/test-home";
import { setUserTenants } from "../tenants/membership";
import { createUser, updateUser } from "../users/users";
import { endSession, sessionUser, startSession } from "./sessions";

describe("a session read on server B after a change on server A", () => {
  const t = useTestHome(tempDb);

  it("carries the role, the tenants and the open state as A left them, at B's next request", async () => {
    const b = secondConnection(t);
    try {
      const audit = new MemoryAuditSink();
      const boss = await createUser(t.db, { email: "boss@x.io", role: "admin", password: "password1" });
      const ann = await createUser(t.db, { email: "ann@x.io", role: "author", password: "password1" });
      const by = { audit, actor: { id: boss.id, email: boss.email } };
      const sid = await startSession(t.db, ann.id, "10.0.0.1");
      const token = { userId: ann.id, sid };
      expect(await sessionUser(b.db, token)).toMatchObject({ role: "author", tenants: [] });

      await setUserTenants(t.db, ann.id, ["teal", "amber"], by);
      expect(await sessionUser(b.db, token)).toMatchObject({ role: "author", tenants: ["amber", "teal"] });
      await updateUser(t.db, ann.id, { role: "viewer" }, by);
      expect(await sessionUser(b.db, token)).toMatchObject({ role: "viewer", tenants: ["amber", "teal"] });
      await setUserTenants(t.db, ann.id, ["amber"], by);
      expect((await sessionUser(b.db, token))?.tenants).toEqual(["amber"]);

      await endSession(t.db, sid, "sign_out");
      expect(await sessionUser(b.db, token)).toBeNull();
    } finally {
      await b.close();
    }
  });
});
