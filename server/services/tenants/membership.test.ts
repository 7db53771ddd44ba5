// Who belongs to which tenant (issue #40), on a real SQLite file through the real routers: an admin assigns, a
// tenant admin only within their tenants, an identity provider's claim at each sign-in, a token at most its owner's.
import { describe, expect, it } from "vitest";
import type { SessionUser } from "../../auth";
import { parseRoleMap } from "../../domain/oidc";
import { TENANTS_PER_USER_MAX } from "../../domain/tenants";
import { oidcSignIn } from "../auth/oidc";
import { createUser } from "../users/users";
import { callerFor } from "../../test-support/caller";
import { useSkillsTestHome } from "../../test-support/test-home";
import { tenantsOf } from "./membership";

const h = useSkillsTestHome();
const api = (u: SessionUser) => callerFor(h, u);
async function user(email: string, role: SessionUser["role"]): Promise<SessionUser> {
  const u = await createUser(h.db, { email, role, password: "password1" });
  return { id: u.id, email: u.email, name: "", role };
}

describe("assigning tenants", () => {
  it("the global admin assigns any; the list shows them; each change is one tenants_assigned row with before and after", async () => {
    const root = await user("root@x.io", "admin");
    const ann = await user("ann@x.io", "author");
    await api(root).user.setTenants({ id: ann.id, tenants: [" acme ", "globex", "acme"] });
    expect(await tenantsOf(h.db, ann.id)).toEqual(["acme", "globex"]);
    await api(root).user.setTenants({ id: ann.id, tenants: ["globex"] });
    await api(root).user.setTenants({ id: ann.id, tenants: ["globex"] }); // no change, no row
    expect((await api(root).user.list()).find((u) => u.id === ann.id)?.tenants).toEqual(["globex"]);
    const rows = h.audit.events.filter((e) => e.type === "tenants_assigned");
    expect(rows.map((e) => e.details)).toEqual([
      { userId: ann.id, email: "ann@x.io", before: [], after: ["acme", "globex"], via: "admin" },
      { userId: ann.id, email: "ann@x.io", before: ["acme", "globex"], after: ["globex"], via: "admin" },
    ]);
  });

  it("a tenant admin assigns only their tenants, to users of their tenants only; nobody else assigns at all", async () => {
    const root = await user("root@x.io", "admin");
    const carol = await user("carol@x.io", "admin");
    const ann = await user("ann@x.io", "author");
    const bob = await user("bob@x.io", "author");
    await api(root).user.setTenants({ id: carol.id, tenants: ["acme"] });
    await api(root).user.setTenants({ id: bob.id, tenants: ["globex"] });
    // Someone of no tenant is the global admin's to place: a tenant admin cannot claim them.
    await expect(api(carol).user.setTenants({ id: ann.id, tenants: ["acme"] })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await api(root).user.setTenants({ id: ann.id, tenants: ["acme"] });
    await api(carol).user.setTenants({ id: ann.id, tenants: ["acme"] });
    await expect(api(carol).user.setTenants({ id: ann.id, tenants: ["acme", "globex"] })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(api(carol).user.setTenants({ id: bob.id, tenants: [] })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await tenantsOf(h.db, bob.id)).toEqual(["globex"]);
    await expect(api(ann).user.setTenants({ id: ann.id, tenants: ["globex"] })).rejects.toMatchObject({ code: "FORBIDDEN" });
    // Carol's claim of someone of no tenant, on the record of her one tenant; the tenant refused, twice; then ann's
    // attempt, on the record of hers.
    expect(h.audit.events.filter((e) => e.type === "access_denied").map((e) => e.tenant)).toEqual(["acme", "globex", "globex", "acme"]);
  });

  it("a bad name refuses the whole list with the reason and changes nothing; 100 times the limit is refused at once", async () => {
    const root = await user("root@x.io", "admin");
    const ann = await user("ann@x.io", "author");
    await api(root).user.setTenants({ id: ann.id, tenants: ["acme"] });
    for (const bad of ["  ", "a\u0007b", "x".repeat(129)]) {
      await expect(api(root).user.setTenants({ id: ann.id, tenants: ["globex", bad] })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
    const many = Array.from({ length: TENANTS_PER_USER_MAX * 100 }, (_, i) => `t${i}`);
    await expect(api(root).user.setTenants({ id: ann.id, tenants: many })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await tenantsOf(h.db, ann.id)).toEqual(["acme"]);
    await expect(api(root).user.setTenants({ id: "nobody", tenants: [] })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("a token's tenants", () => {
  it("are its owner's unless narrowed, never more; a machine token of a tenant admin carries at most theirs", async () => {
    const root = await user("root@x.io", "admin");
    const carol = await user("carol@x.io", "admin");
    const ann = await user("ann@x.io", "author");
    await api(root).user.setTenants({ id: ann.id, tenants: ["acme", "globex"] });
    await api(root).user.setTenants({ id: carol.id, tenants: ["acme"] });
    const base = { name: "sync", scopes: ["catalog:read" as const], expiresInDays: 30 };
    expect((await api(ann).tokens.create(base)).info.tenants).toEqual(["acme", "globex"]);
    expect((await api(ann).tokens.create({ ...base, tenants: ["globex"] })).info.tenants).toEqual(["globex"]);
    await expect(api(ann).tokens.create({ ...base, tenants: ["initech"] })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(api(carol).tokens.create({ ...base, forUserId: "machine", tenants: ["globex"] })).rejects.toMatchObject({ code: "FORBIDDEN" });
    // ann is also of globex, so not carol's to make tokens for; cy, of acme alone, is.
    await expect(api(carol).tokens.create({ ...base, forUserId: ann.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const cy = await user("cy@x.io", "author");
    await api(root).user.setTenants({ id: cy.id, tenants: ["acme"] });
    expect((await api(carol).tokens.create({ ...base, forUserId: cy.id })).info.tenants).toEqual(["acme"]);
    expect(h.audit.events.find((e) => e.type === "token_created")?.details).toMatchObject({ tenants: ["acme", "globex"] });
  });
});

describe("the identity provider's tenants claim", () => {
  const sign = (tenants: string[] | undefined) =>
    oidcSignIn(h.db, h.audit, { issuer: "https://idp.example", subject: "s-1", email: "ann@corp.example", groups: [], ...(tenants ? { tenants } : {}) }, parseRoleMap(""), "10.0.0.1");

  it("sets the tenants at every sign-in (leaving a tenant there leaves it here), drops names that break the rule, and leaves them alone when not configured", async () => {
    const first = await sign(["acme", "globex", "bad\u0000name"]);
    if (!first.ok) throw new Error(first.message);
    expect(await tenantsOf(h.db, first.user.id)).toEqual(["acme", "globex"]);
    await sign(["globex"]);
    expect(await tenantsOf(h.db, first.user.id)).toEqual(["globex"]);
    await sign(undefined);
    expect(await tenantsOf(h.db, first.user.id)).toEqual(["globex"]);
    expect(h.audit.events.filter((e) => e.type === "tenants_assigned").map((e) => e.details?.via)).toEqual(["oidc", "oidc"]);
  });
});
