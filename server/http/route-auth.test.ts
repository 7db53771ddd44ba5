// The audit downloads' refusal (issue #40): a role below the route's is a 403 and an access_denied row on the record
// of the person's tenant, as a refused tRPC call's is, so that tenant's admin reads it. Real SQLite, real audit.
import { describe, expect, it } from "vitest";
import type { SessionUser } from "../auth";
import { auditSinkFor, flushAudit } from "../services/audit";
import { createUser } from "../services/users/users";
import { callerFor } from "../test-support/caller";
import { useSkillsTestHome } from "../test-support/test-home";
import { refuseRole, type RouteGuard } from "./route-auth";

const h = useSkillsTestHome();
const api = (u: SessionUser) => callerFor({ ...h, audit: auditSinkFor(h.db) }, u);
const EXPORT: RouteGuard = { route: "/api/audit/export", required: "author", toDo: "export audit events", doing: "Exporting audit events" };
const CHECKPOINTS: RouteGuard = { route: "/api/audit/checkpoints", required: "admin", toDo: "download audit checkpoints", doing: "Downloading audit checkpoints" };

async function person(email: string, role: SessionUser["role"], tenants: string[], root?: SessionUser): Promise<SessionUser> {
  const u = await createUser(h.db, { email, role, password: "password1" });
  const user: SessionUser = { id: u.id, email: u.email, name: "", role };
  if (tenants.length) await api(root!).user.setTenants({ id: u.id, tenants });
  return user;
}

describe("a refused audit download", () => {
  it("is on the record of the person's one tenant; of several tenants or none, on no tenant's", async () => {
    const root = await person("root@x.io", "admin", []);
    const vera = await person("vera@x.io", "viewer", ["acme"], root);
    const ann = await person("ann@x.io", "author", ["acme"], root);
    const sam = await person("sam@x.io", "viewer", ["acme", "globex"], root);
    const nobody = await person("nobody@x.io", "viewer", []);
    const refused = await refuseRole(h.db, vera, EXPORT, "127.0.0.1");
    expect([refused.status, await refused.text()]).toEqual([403, "Exporting audit events needs the author role; you are viewer.\n"]);
    await refuseRole(h.db, ann, CHECKPOINTS, "127.0.0.1");
    await refuseRole(h.db, sam, EXPORT, "127.0.0.1");
    await refuseRole(h.db, nobody, EXPORT, "127.0.0.1");
    await flushAudit(h.db);
    const rows = (await api(root).audit.list({ type: "access_denied" })).events;
    const byActor = new Map(rows.map((e) => [e.actorId, [e.tenant ?? null, (e.details as { route?: string }).route]]));
    expect(byActor.get(vera.id)).toEqual(["acme", "/api/audit/export"]);
    expect(byActor.get(ann.id)).toEqual(["acme", "/api/audit/checkpoints"]);
    expect(byActor.get(sam.id)).toEqual([null, "/api/audit/export"]);
    expect(byActor.get(nobody.id)).toEqual([null, "/api/audit/export"]);
    // acme's admin reads the refusals of acme's people.
    const carol = await person("carol@x.io", "admin", ["acme"], root);
    const seen = (await api(carol).audit.list({ type: "access_denied" })).events.map((e) => e.actorId);
    expect(seen.sort()).toEqual([vera.id, ann.id].sort());
  });
});
