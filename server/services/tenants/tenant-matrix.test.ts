// Tenants as a boundary (issue #40), door by door (server/test-support/tenant-matrix.ts): a user of globex never
// sees, opens, activates or syncs acme's skill, and a user of acme does; the global admin sees both. Then the
// tenant a request names, and the audit as each kind of admin reads it. A real SQLite file, real skill folders,
// the real tRPC routers and the catalog route over HTTP on 127.0.0.1.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { SessionUser } from "../../auth";
import { handleCatalogRequest } from "../../http/catalog-route";
import { auditSinkFor, flushAudit } from "../audit";
import { auditScopeOf } from "../audit/filter";
import { exportStream } from "../audit/export";
import { settled } from "../playground";
import { settledRun } from "../evals/runs";
import { sessionSkills } from "../playground/scope";
import { createUser } from "../users/users";
import { callerFor } from "../../test-support/caller";
import { serveFetch } from "../../test-support/http-server";
import { useSkillsTestHome } from "../../test-support/test-home";
import { ARCHIVE_BASE, TENANT_DOORS, archiveTenantSkills, writeTenantSkills, type TenantWorld, type Who } from "../../test-support/tenant-matrix";
import { skillMd, writeSkillOnDisk } from "../skills/test-support/skills";

const h = useSkillsTestHome({ once: true });
let server: Awaited<ReturnType<typeof serveFetch>>;
let world: TenantWorld;
const who: Record<"alice" | "bob" | "root" | "carol", Who> = {} as never;
const runs = new Map<string, number>();
const api = (u: SessionUser) => callerFor({ ...h, audit: auditSinkFor(h.db) }, u);

async function person(email: string, role: SessionUser["role"], tenants: string[]): Promise<Who> {
  const u = await createUser(h.db, { email, role, password: "password1" });
  const user: SessionUser = { id: u.id, email: u.email, name: "", role };
  if (tenants.length) await api(who.root.user).user.setTenants({ id: u.id, tenants });
  const { token } = await api(user).tokens.create({ name: "sync", scopes: ["catalog:read"], expiresInDays: 30 });
  return { user, token };
}

beforeAll(async () => {
  writeTenantSkills(h.dataHome);
  who.root = await person("root@x.io", "admin", []);
  who.alice = await person("alice@x.io", "author", ["acme"]);
  who.bob = await person("bob@x.io", "author", ["globex"]);
  who.carol = await person("carol@x.io", "admin", ["acme"]);
  await archiveTenantSkills(h.dataHome, api(who.root.user));
  // One finished trigger-test run of each skill, started by someone who may run it.
  for (const [starter, skill] of [[who.alice, "acme-ledger"], [who.bob, "globex-ledger"], [who.root, "shared-notes"]] as const) {
    const cases = [{ query: "reconcile the monthly ledger", should_trigger: true }];
    const { id } = await api(starter.user).evals.start({ ref: { layer: "project", skill }, provider: "offline", mode: "tool", runs: 1, cases });
    await settledRun(h.ctx({ ...who.root.user }), id);
    runs.set(skill, id);
  }
  server = await serveFetch((req) => handleCatalogRequest(req, { db: h.db, dataHome: h.dataHome, audit: auditSinkFor(h.db) }));
  world = {
    api,
    catalog: (token, query) => fetch(`${server.url}/api/catalog${query ? `?${query}` : ""}`, { headers: { authorization: `Bearer ${token}` } }),
    playground: async (user) => (await sessionSkills(h.db, h.dataHome, await api(user).playground.create({}))).map((e) => e.name),
    runOf: (skill) => runs.get(skill)!,
    deletedVersion: async (skill) => (await api(who.root.user).skill.deleted()).find((d) => d.ref.skill === skill)!.versionId,
  };
});
afterAll(async () => {
  await server.close();
});

describe("every door keeps a tenant's skills to that tenant", () => {
  for (const d of TENANT_DOORS) {
    it(`${d.door}: acme's user gets acme's skill and never globex's; globex's user the other way round`, async () => {
      const alice = await d.seen(world, who.alice);
      expect(alice).toContain("acme-ledger");
      expect(alice).not.toContain("globex-ledger");
      const bob = await d.seen(world, who.bob);
      expect(bob).toContain("globex-ledger");
      expect(bob).not.toContain("acme-ledger");
      // An admin of acme is limited to acme like anyone of acme.
      expect(await d.seen(world, who.carol)).not.toContain("globex-ledger");
    });
  }

  it("the global admin (an admin with no tenants) lists and opens both", async () => {
    for (const door of ["skill list", "skill info", "read a file", "trigger tests", "deleted skills list", "a version by its id"]) {
      const seen = await TENANT_DOORS.find((d) => d.door === door)!.seen(world, who.root);
      expect(seen, door).toEqual(expect.arrayContaining(["acme-ledger", "globex-ledger"]));
    }
  });

  it("the doctor's report and its overlaps: with the admin's default tenant globex, acme's user is never shown globex's skill", async () => {
    // A default tenant makes globex's skill active for callers naming no tenant, as the doctor's report resolves.
    fs.writeFileSync(path.join(h.dataHome.home, "config.yaml"), "defaults:\n  tenant: globex\n");
    try {
      const rootReport = JSON.stringify(await api(who.root.user).doctor.report());
      expect(rootReport).toContain("globex-ledger");
      const aliceReport = await api(who.alice.user).doctor.report();
      expect(JSON.stringify(aliceReport)).not.toContain("globex-ledger");
      expect(aliceReport.overlaps).toEqual([]);
    } finally {
      fs.rmSync(path.join(h.dataHome.home, "config.yaml"), { force: true });
    }
  });

  it("the what-if pickers offer only the caller's tenants", async () => {
    expect((await api(who.alice.user).layers.options()).scope.tenants).toEqual(["acme"]);
    expect((await api(who.root.user).layers.options()).scope.tenants).toEqual(["acme", "globex"]);
  });
});

describe("a trigger-test run's cancel", () => {
  it("a tenant admin cancels the runs of the people they manage, not a run someone outside their tenants started", async () => {
    const carol = api(who.carol.user);
    // Alice's run (acme) is within Carol's reach: allowed (it has finished, so there is nothing left to stop).
    expect(await carol.evals.cancel({ id: world.runOf("acme-ledger") })).toEqual({ cancelled: false });
    // The unscoped skill's run is one Carol can see, but the global admin started it.
    await expect(carol.evals.cancel({ id: world.runOf("shared-notes") })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(carol.evals.cancel({ id: world.runOf("globex-ledger") })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const refused = (await api(who.root.user).audit.list({ type: "access_denied", user: who.carol.user.id })).events;
    expect(refused.filter((e) => (e.details as { procedure?: string }).procedure === "evals.cancel")).toHaveLength(1);
    expect(await api(who.root.user).evals.cancel({ id: world.runOf("acme-ledger") })).toEqual({ cancelled: false });
  });
});

describe("the policy as each admin reads it", () => {
  it("a tenant admin's copy leaves out, and counts, the rules naming a skill of another tenant only; the global admin's has all", async () => {
    const root = api(who.root.user);
    const rules = [
      ...["acme-ledger", "globex-ledger", "shared-notes", "no-such-skill"].map((name) => ({ op: "block" as const, name })),
      { op: "disable" as const, name: "globex-ledger", layer: "project" as const },
      { op: "setAllowlist" as const, names: ["acme-ledger", "globex-ledger", "shared-notes"] },
    ];
    for (const r of rules) await root.policy.change(r);
    try {
      const carol = await api(who.carol.user).policy.get();
      expect(JSON.stringify(carol)).not.toContain("globex-ledger");
      expect(carol.policy.blockedNames.slice().sort()).toEqual(["acme-ledger", "no-such-skill", "shared-notes"]);
      expect([carol.policy.disabled, carol.policy.allowlist?.slice().sort(), carol.hiddenRules]).toEqual([[], ["acme-ledger", "shared-notes"], 3]);
      const all = await root.policy.get();
      expect([all.policy.blockedNames.length, all.policy.disabled.length, all.policy.allowlist?.length, all.hiddenRules]).toEqual([4, 1, 3, 0]);
    } finally {
      for (const name of ["acme-ledger", "globex-ledger", "shared-notes", "no-such-skill"]) await root.policy.change({ op: "unblock", name });
      await root.policy.change({ op: "enable", name: "globex-ledger", layer: "project" });
      await root.policy.change({ op: "setAllowlist", names: null });
    }
    expect((await root.policy.get()).policy).toEqual({ blockedNames: [], disabled: [] });
  });

  it("a rule naming a deleted skill of another tenant is left out and counted too; a deleted skill of theirs stays", async () => {
    const root = api(who.root.user);
    const archive = path.join(h.dataHome.projectRoot, ARCHIVE_BASE);
    for (const [name, tenant] of [["acme-payroll", "acme"], ["globex-payroll", "globex"]] as const) {
      writeSkillOnDisk(path.join(archive, name), { "SKILL.md": skillMd(name, `Run the ${tenant} payroll. Use at month end.`, `scope:\n  tenants: [${tenant}]\n`) });
      await root.skill.delete({ ref: { layer: "project", base: ARCHIVE_BASE, skill: name } });
      await root.policy.change({ op: "block", name });
    }
    try {
      const carol = await api(who.carol.user).policy.get();
      expect(JSON.stringify(carol)).not.toContain("globex-payroll");
      expect([carol.policy.blockedNames, carol.hiddenRules]).toEqual([["acme-payroll"], 1]);
      expect((await root.policy.get()).policy.blockedNames.slice().sort()).toEqual(["acme-payroll", "globex-payroll"]);
    } finally {
      for (const name of ["acme-payroll", "globex-payroll"]) await root.policy.change({ op: "unblock", name });
    }
  });
});

describe("a request's tenant must be the caller's", () => {
  it("another tenant is FORBIDDEN at every door that takes one, and audited with that tenant", async () => {
    await expect(api(who.bob.user).playground.create({ tenant: "acme" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(api(who.bob.user).layers.matrix({ tenant: "acme" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(api(who.carol.user).layers.effective({ tenant: "globex" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const res = await world.catalog(who.bob.token, "tenant=acme");
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("FORBIDDEN");
    const refusals = (await api(who.root.user).audit.list({ type: "access_denied" })).events;
    expect(refusals.filter((e) => e.tenant === "acme" && e.actorId === who.bob.user.id)).toHaveLength(2 + 1);
    expect(refusals.some((e) => e.tenant === "globex" && e.actorId === who.carol.user.id)).toBe(true);
  });

  it("a global admin's token stops being global when its owner is given a tenant", async () => {
    const dora = await person("dora@x.io", "admin", []);
    expect((await world.catalog(dora.token, "tenant=globex")).status).toBe(200);
    await api(who.root.user).user.setTenants({ id: dora.user.id, tenants: ["acme"] });
    expect((await world.catalog(dora.token, "tenant=globex")).status).toBe(403);
    expect(await (await world.catalog(dora.token)).text()).not.toContain("globex-ledger");
  });

  it("a caller with one tenant who names none gets it; their own tenant is accepted; the global admin may name any", async () => {
    expect((await api(who.alice.user).playground.create({})).tenant).toBe("acme");
    expect((await api(who.alice.user).layers.matrix({ tenant: "acme" })).context.tenant).toBe("acme");
    expect((await api(who.root.user).layers.matrix({ tenant: "globex" })).context.tenant).toBe("globex");
    const res = await world.catalog(who.alice.token, "tenant=acme");
    expect(res.status).toBe(200);
  });
});

describe("the audit of a tenant", () => {
  it("a playground turn's rows carry the session's tenant", async () => {
    // The turn runs in this thread: the tenant is added by the turn's own run (turn-run.ts) on either side, and the
    // turn worker's start (6 s here when quiet, over settled's 15 s on a busy machine) is turn-worker.test.ts's.
    vi.stubEnv("OMNIFORGE_TURN_WORKER", "0");
    const a = api(who.alice.user);
    const s = await a.playground.create({});
    try {
      await a.playground.send({ sessionId: s.id, request: "reconcile the monthly ledger" });
      expect(await settled(s.id)).toBe(true);
    } finally {
      vi.unstubAllEnvs();
    }
    // The turn's last rows wait in the audit batch (50 ms): written before the read that must see them all.
    await flushAudit(h.db);
    const rows = (await api(who.root.user).audit.list({ session: s.id })).events;
    expect(rows.map((e) => e.type)).toContain("agent_run_started");
    expect(new Set(rows.map((e) => e.tenant))).toEqual(new Set(["acme"]));
  });

  it("what a caller of one tenant changes is on that tenant's record", async () => {
    const a = api(who.alice.user);
    const file = await a.skill.readFile({ ref: { layer: "project", skill: "shared-notes" }, path: "SKILL.md" });
    await a.skill.save({ ref: { layer: "project", skill: "shared-notes" }, path: "SKILL.md", text: `${file.text}\nOne more line.\n`, baseDigest: file.digest });
    const saved = (await api(who.carol.user).audit.list({ type: "skill_saved" })).events;
    expect(saved.map((e) => [e.skill, e.actorId, e.tenant])).toEqual([["shared-notes", who.alice.user.id, "acme"]]);
  });

  it("a tenant admin's own refusals are on their tenant's record; an admin of several tenants' carry none", async () => {
    const change = { op: "block" as const, name: "shared-notes" };
    await expect(api(who.carol.user).policy.change(change)).rejects.toMatchObject({ code: "FORBIDDEN" });
    const mine = (await api(who.carol.user).audit.list({ type: "access_denied", user: who.carol.user.id })).events;
    expect(mine.filter((e) => (e.details as { procedure?: string }).procedure === "policy.change").map((e) => e.tenant)).toEqual(["acme"]);
    // Acting for neither of two tenants, such a refusal is on neither's record: the global admin reads it.
    const erin = await person("erin@x.io", "admin", ["acme", "globex"]);
    await expect(api(erin.user).policy.change(change)).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await api(erin.user).audit.list({ type: "access_denied", user: erin.user.id })).events).toEqual([]);
    expect((await api(who.root.user).audit.list({ type: "access_denied", user: erin.user.id })).events.map((e) => e.tenant)).toEqual([null]);
  });

  it("an admin with tenants lists, counts and exports only their tenants' rows; the global admin all", async () => {
    const carol = (await api(who.carol.user).audit.list({})).events;
    expect(carol.length).toBeGreaterThan(0);
    expect(new Set(carol.map((e) => e.tenant))).toEqual(new Set(["acme"]));
    const all = (await api(who.root.user).audit.list({})).events;
    expect(new Set(all.map((e) => e.tenant))).toEqual(new Set(["acme", "globex", null]));
    expect((await api(who.carol.user).audit.summary({})).count).toBe(carol.length);
    const exported = await new Response(exportStream(h.db, {}, await auditScopeOf(h.db, who.carol.user), "jsonl")).text();
    const tenants = exported.trim().split("\n").map((l) => (JSON.parse(l) as { tenant: string | null }).tenant);
    expect(tenants.length).toBe(carol.length);
    expect(new Set(tenants)).toEqual(new Set(["acme"]));
  });
});
