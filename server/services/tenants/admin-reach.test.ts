// A tenant admin (an admin of some tenants, issue #40) manages their tenants' people, tokens and approvals and no
// one else's; what is the whole console's (the policy, git sources, the chain's verification) stays the global
// admin's. A real SQLite file, real skill folders and the real tRPC routers; every refusal is on the record.
import { describe, expect, it } from "vitest";
import type { SessionUser } from "../../auth";
import { createUser } from "../users/users";
import { callerFor } from "../../test-support/caller";
import { useSkillsTestHome } from "../../test-support/test-home";
import { writeTenantSkills } from "../../test-support/tenant-matrix";
import { skillMd, writeSkillOnDisk } from "../skills/test-support/skills";
import path from "node:path";
import { tenantsOf } from "./membership";
import { authenticateBearer } from "../tokens";
import { recordSync } from "../catalog-api";

const h = useSkillsTestHome();
const api = (u: SessionUser) => callerFor(h, u);

async function people() {
  const make = async (email: string, role: SessionUser["role"], tenants: string[]): Promise<SessionUser> => {
    const u = await createUser(h.db, { email, role, password: "password1", tenants });
    return { id: u.id, email: u.email, name: "", role };
  };
  return {
    root: await make("root@x.io", "admin", []),
    carol: await make("carol@x.io", "admin", ["acme"]),
    ann: await make("ann@x.io", "author", ["acme"]),
    bob: await make("bob@x.io", "author", ["globex"]),
    both: await make("both@x.io", "author", ["acme", "globex"]),
    nobody: await make("nobody@x.io", "viewer", []),
  };
}

const refusals = () => h.audit.events.filter((e) => e.type === "access_denied").map((e) => e.details?.procedure);

describe("a tenant admin's users", () => {
  it("lists themselves and the users all of whose tenants are theirs; the global admin lists everyone", async () => {
    const p = await people();
    expect((await api(p.carol).user.list()).map((u) => u.email).sort()).toEqual(["ann@x.io", "carol@x.io"]);
    expect(await api(p.root).user.list()).toHaveLength(6);
  });

  it("changes, signs out, resets and assigns only those; anyone else is refused and audited, and nothing changes", async () => {
    const p = await people();
    const carol = api(p.carol);
    for (const other of [p.bob, p.both, p.root, p.nobody]) {
      await expect(carol.user.update({ id: other.id, role: "viewer" })).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(carol.user.resetPassword({ id: other.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(carol.user.signOutEverywhere({ id: other.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
    expect(refusals()).toEqual(Array.from({ length: 4 }, () => ["user.update", "user.resetPassword", "user.signOutEverywhere"]).flat());
    expect((await api(p.root).user.list()).find((u) => u.id === p.root.id)?.role).toBe("admin");
    // Claiming someone of no tenant would make the global admin a tenant admin: refused, as is leaving anyone with none.
    await expect(carol.user.setTenants({ id: p.root.id, tenants: ["acme"] })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(carol.user.setTenants({ id: p.nobody.id, tenants: ["acme"] })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(carol.user.setTenants({ id: p.carol.id, tenants: [] })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect([await tenantsOf(h.db, p.root.id), await tenantsOf(h.db, p.nobody.id), await tenantsOf(h.db, p.carol.id)]).toEqual([[], [], ["acme"]]);
    // Her own people she manages.
    await carol.user.update({ id: p.ann.id, role: "viewer" });
    expect((await carol.user.resetPassword({ id: p.ann.id })).password).toBeTruthy();
  });

  it("a user a tenant admin makes belongs to the maker's tenants from the start, so an admin made so is never global", async () => {
    const p = await people();
    const dora = await api(p.carol).user.create({ email: "dora@x.io", role: "admin", password: "password1" });
    expect(await tenantsOf(h.db, dora.id)).toEqual(["acme"]);
    expect(h.audit.events.find((e) => e.type === "user_created")?.details).toMatchObject({ email: "dora@x.io", role: "admin", tenants: ["acme"] });
    expect(await tenantsOf(h.db, (await api(p.root).user.create({ email: "eve@x.io", role: "author", password: "password1" })).id)).toEqual([]);
  });
});

describe("a tenant admin's tokens", () => {
  it("lists all tokens of the users they manage and machine tokens of their tenants; revokes and makes only those", async () => {
    const p = await people();
    const base = { name: "sync", scopes: ["catalog:read" as const], expiresInDays: 30 };
    const annT = (await api(p.ann).tokens.create(base)).info;
    const bobT = (await api(p.bob).tokens.create(base)).info;
    const rootMachine = (await api(p.root).tokens.create({ ...base, forUserId: "machine" })).info;
    const carolMachine = (await api(p.carol).tokens.create({ ...base, forUserId: "machine" })).info;
    expect((await api(p.carol).tokens.list({ all: true })).map((t) => t.id).sort()).toEqual([annT.id, carolMachine.id].sort());
    expect(await api(p.root).tokens.list({ all: true })).toHaveLength(4);
    await expect(api(p.carol).tokens.revoke({ id: bobT.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(api(p.carol).tokens.revoke({ id: rootMachine.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(api(p.carol).tokens.create({ ...base, forUserId: p.bob.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await api(p.root).tokens.list({ all: true })).filter((t) => t.revokedAt)).toEqual([]);
    expect(refusals()).toEqual(["tokens.revoke", "tokens.revoke", "tokens.create"]);
    expect((await api(p.carol).tokens.revoke({ id: annT.id })).revokedAt).not.toBeNull();
  });

  it("sees where a skill is deployed only through the tokens they manage", async () => {
    const p = await people();
    const base = { name: "sync", scopes: ["catalog:read" as const], expiresInDays: 30 };
    const report = async (u: SessionUser, host: string) => {
      const { token } = await api(u).tokens.create(base);
      const principal = await authenticateBearer(h.db, `Bearer ${token}`, "catalog:read");
      await recordSync(h.db, principal, { host, agent: "claude-code", scope: "user", skills: [{ name: "shared-notes", digest: `sha256:${"d".repeat(64)}` }] }, h.audit);
    };
    await report(p.ann, "ann-laptop");
    await report(p.bob, "bob-laptop");
    expect((await api(p.carol).tokens.deployments({ name: "shared-notes" })).map((d) => d.host)).toEqual(["ann-laptop"]);
    expect((await api(p.root).tokens.deployments({ name: "shared-notes" })).map((d) => d.host).sort()).toEqual(["ann-laptop", "bob-laptop"]);
  });
});

describe("what stays the global admin's", () => {
  it("a tenant admin reads the policy but neither changes nor previews it, nor touches sources, the doctor's gate or the chain's verification", async () => {
    const p = await people();
    const carol = api(p.carol);
    expect(await carol.policy.get()).toMatchObject({ mayChange: false, policy: { blockedNames: [] } });
    expect((await api(p.root).policy.get()).mayChange).toBe(true);
    // Each page takes the right from the API: the doctor's gate and the Layers page's block button too.
    expect([(await carol.doctor.policy()).mayChange, (await carol.layers.options()).mayChangePolicy]).toEqual([false, false]);
    expect([(await api(p.root).doctor.policy()).mayChange, (await api(p.root).layers.options()).mayChangePolicy]).toEqual([true, true]);
    const change = { op: "block" as const, name: "shared-notes" };
    await expect(carol.policy.change(change)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(carol.policy.preview(change)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(carol.sources.list({})).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(carol.sources.add({ name: "x", url: "https://example.invalid/x.git" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(carol.doctor.setPolicy({ gate: "high", ignore: [] })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(carol.audit.verify()).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(refusals()).toEqual(["policy.change", "policy.preview", "sources.list", "sources.add", "doctor.setPolicy", "audit.verify"]);
    expect((await carol.policy.get()).policy.blockedNames).toEqual([]);
    await api(p.root).policy.change(change);
    expect((await carol.policy.get()).policy.blockedNames).toEqual(["shared-notes"]);
  });
});

describe("a tenant admin's approvals", () => {
  it("lists what they can see, decides only what is scoped to their tenants alone, and never names another tenant's skill", async () => {
    writeTenantSkills(h.dataHome);
    const p = await people();
    await api(p.root).policy.change({ op: "setRequireApproval", project: true });
    const rootView = await api(p.root).policy.approvals();
    const id = (name: string) => rootView.items.find((i) => i.skill === name)!.id;
    await api(p.root).policy.decide({ id: id("globex-ledger"), decision: "approved", comment: "" });

    const carol = api(p.carol);
    const mine = await carol.policy.approvals();
    expect(mine.items.map((i) => [i.skill, i.mayDecide])).toEqual([
      ["acme-ledger", true],
      ["shared-notes", false],
    ]);
    expect(JSON.stringify(mine)).not.toContain("globex-ledger");
    expect(rootView.items.every((i) => i.mayDecide)).toBe(true);

    await expect(carol.policy.decide({ id: id("shared-notes"), decision: "approved", comment: "" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(carol.policy.decide({ id: id("globex-ledger"), decision: "rejected", comment: "no" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(carol.policy.review({ id: id("globex-ledger") })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(refusals()).toEqual(["policy.decide", "policy.decide", "policy.review"]);
    await carol.policy.decide({ id: id("acme-ledger"), decision: "approved", comment: "" });
    const after = await api(p.root).policy.approvals();
    expect(after.items.map((i) => [i.skill, i.status])).toEqual([["shared-notes", "pending"]]);
    expect(after.recent.map((r) => r.skill).sort()).toEqual(["acme-ledger", "globex-ledger"]);
    expect((await carol.policy.approvals()).recent.map((r) => [r.skill, r.decidedBy])).toEqual([["acme-ledger", "carol@x.io"]]);
  });
});

describe("a tenant admin's look at personal skills", () => {
  it("reviews, lists and what-ifs only the users they manage; another user's personal layer is refused and audited", async () => {
    const p = await people();
    for (const u of [p.ann, p.bob]) writeSkillOnDisk(path.join(h.dataHome.home, "users", u.id, "skills", "my-notes"), { "SKILL.md": skillMd("my-notes") });
    const carol = api(p.carol);
    const ref = (u: SessionUser) => ({ layer: "personal" as const, skill: "my-notes", ownerId: u.id });
    expect((await carol.skill.readFile({ ref: ref(p.ann), path: "SKILL.md" })).text).toContain("my-notes");
    expect((await carol.skill.list({ owner: p.ann.id })).rows.map((r) => r.name)).toEqual(["my-notes"]);
    expect((await carol.layers.options()).users.map((u) => u.email).sort()).toEqual(["ann@x.io", "carol@x.io"]);
    await expect(carol.skill.readFile({ ref: ref(p.bob), path: "SKILL.md" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(carol.skill.list({ owner: p.bob.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(carol.layers.matrix({ userId: p.bob.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(refusals()).toEqual(["skill.readFile", "skill.list", "layers.matrix"]);
    // The global admin reviews anyone's.
    expect((await api(p.root).skill.readFile({ ref: ref(p.bob), path: "SKILL.md" })).text).toContain("my-notes");
  });
});

describe("the layers that reach every tenant", () => {
  it("a tenant admin neither creates nor deploys into the enterprise layer and is not offered it; the global admin is", async () => {
    writeTenantSkills(h.dataHome);
    const p = await people();
    const carol = api(p.carol);
    const make = { layer: "enterprise" as const, name: "house-rules", description: "House rules. Use when asked about them.", template: "basic" };
    expect((await carol.skill.targets()).layers).not.toContain("enterprise");
    expect((await carol.layers.options()).deployTargets).toEqual(["personal", "project"]);
    await expect(carol.skill.create(make)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(carol.layers.deployPreview({ name: "acme-ledger", target: "enterprise" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(refusals()).toEqual(["skill.create", "layers.deployPreview"]);
    expect((await carol.layers.deployPreview({ name: "acme-ledger", target: "personal" })).to.layer).toBe("personal");
    expect((await api(p.root).layers.options()).deployTargets).toContain("enterprise");
    expect((await api(p.root).skill.create(make)).ref.layer).toBe("enterprise");
  });
});

describe("a tenant admin and playground sessions", () => {
  it("reads the sessions of the users they manage; another tenant's session is not found", async () => {
    const p = await people();
    const annS = await api(p.ann).playground.create({});
    const bobS = await api(p.bob).playground.create({});
    expect((await api(p.carol).playground.get({ sessionId: annS.id })).session.id).toBe(annS.id);
    await expect(api(p.carol).playground.get({ sessionId: bobS.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await api(p.root).playground.get({ sessionId: bobS.id })).session.id).toBe(bobS.id);
  });
});
