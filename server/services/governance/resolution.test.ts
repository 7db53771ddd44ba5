// Resolution with policies and scopes, through the governance services (the same index, policy store and
// registry resolve() the console and the playground use), on a real data home.
import { describe, expect, it } from "vitest";
import { resolveAll } from "../../runtime/registry";
import { effectivePolicy } from "../policy/store";
import { changePolicy } from "./policy-change";
import { resolutionFor } from "./context";
import { buildMatrix, explain } from "./matrix";
import { govHome } from "./test-support/governance";
import { useTestHome } from "../../test-support/test-home";

const h = useTestHome(govHome);

const change = (c: Parameters<typeof changePolicy>[1]) => changePolicy(h.db, c, { audit: h.audit, actor: { id: h.admin.id, email: h.admin.email } });
const matrixFor = async (w: Parameters<typeof resolutionFor>[3] = {}, viewer = h.admin) => {
  const { index, ctx } = await resolutionFor(h.db, h.dataHome, viewer, w);
  return { m: buildMatrix(index, ctx), index, ctx };
};
const row = (m: Awaited<ReturnType<typeof matrixFor>>["m"], name: string) => m.rows.find((r) => r.name === name);

describe("the override matrix", () => {
  it("an enterprise skill wins over a project skill whatever the project's priority, and the row stands out", async () => {
    h.skill("enterprise", "data-handling", { extra: "priority: 0" });
    h.skill("project", "data-handling", { extra: "priority: 1000" });
    h.skill("project", "solo");
    const { m, index, ctx } = await matrixFor();
    const r = row(m, "data-handling")!;
    expect(r.active).toEqual({ layer: "enterprise" });
    expect(r.overridden).toBe(true);
    expect(r.cells.enterprise.map((c) => c.status)).toEqual(["active"]);
    expect(r.cells.project.map((c) => c.status)).toEqual(["shadowed"]);
    expect(row(m, "solo")!.overridden).toBe(false);
    expect(m.counts).toMatchObject({ names: 2, definitions: 3, overridden: 1, active: 2 });
    const chain = explain(index, "data-handling", ctx, h.dataHome).chain;
    expect(chain.map((c) => c.layer)).toEqual(["enterprise", "project"]);
    expect(chain[1]!.reason).toMatch(/shadowed by the enterprise definition: enterprise > personal > project > plugin/);
    expect(chain[1]!.where).toBe("<project>/.omniforge/skills/data-handling");
  });

  it("plugin cells carry the plugin name, one cell per plugin", async () => {
    h.skill("plugin", "csv", { plugin: "alpha", extra: "priority: 2" });
    h.skill("plugin", "csv", { plugin: "beta", extra: "priority: 1" });
    const { m } = await matrixFor();
    expect(row(m, "csv")!.cells.plugin).toEqual([
      expect.objectContaining({ plugin: "alpha", status: "active" }),
      expect.objectContaining({ plugin: "beta", status: "shadowed" }),
    ]);
  });

  it("a broken definition is listed as invalid, not hidden", async () => {
    h.skill("project", "broken", { raw: "---\nname: broken\ndescription: [unclosed\n---\nbody\n" });
    const { m } = await matrixFor();
    expect(row(m, "broken")!.cells.project[0]!.status).toBe("invalid");
    expect(row(m, "broken")!.active).toBeNull();
  });
});

describe("policies change what agents get", () => {
  it("blocking a project skill removes it from the effective listing (what the playground lists)", async () => {
    h.skill("project", "git-helper");
    h.skill("project", "other");
    await change({ op: "block", name: "git-helper" });
    const { m, index } = await matrixFor();
    expect(row(m, "git-helper")!.cells.project[0]!.status).toBe("blocked");
    expect(row(m, "git-helper")!.active).toBeNull();
    // The playground's listing: effectivePolicy + resolveAll over the same index.
    const listed = resolveAll(index, { policy: await effectivePolicy(h.db, { userId: h.admin.id }) }).skills.map((s) => s.name);
    expect(listed).toEqual(["other"]);
  });

  it("disabling one layer's definition hands the name to the next layer", async () => {
    h.skill("enterprise", "review");
    h.skill("project", "review");
    await change({ op: "disable", name: "review", layer: "enterprise" });
    const { m } = await matrixFor();
    expect(row(m, "review")!.cells.enterprise[0]!.status).toBe("disabled");
    expect(row(m, "review")!.active).toEqual({ layer: "project" });
  });

  it("allowlist mode keeps every unlisted name out; turning it off restores them", async () => {
    h.skill("project", "listed");
    h.skill("project", "unlisted");
    await change({ op: "setAllowlist", names: ["listed"] });
    let { m } = await matrixFor();
    expect(row(m, "listed")!.active).not.toBeNull();
    expect(row(m, "unlisted")!.cells.project[0]!.status).toBe("blocked");
    await change({ op: "setAllowlist", names: null });
    ({ m } = await matrixFor());
    expect(row(m, "unlisted")!.active).not.toBeNull();
  });

  it("forbidden name patterns (vendor words) block matching names in every layer", async () => {
    h.skill("enterprise", "claude-helper");
    h.skill("project", "openai-tool");
    h.skill("project", "fine-name");
    await change({ op: "setForbiddenPatterns", patterns: ["claude", "/^openai-/"] });
    const { m } = await matrixFor();
    expect(row(m, "claude-helper")!.cells.enterprise[0]!.status).toBe("blocked");
    expect(row(m, "openai-tool")!.cells.project[0]!.status).toBe("blocked");
    expect(row(m, "fine-name")!.active).not.toBeNull();
  });
});

describe("what-if: user, environment, agent, tenant", () => {
  it("another environment gets a different active definition (scope.environments)", async () => {
    h.skill("enterprise", "data-handling", { extra: "scope:\n  environments: [production]" });
    h.skill("project", "data-handling", { extra: "scope:\n  environments: [staging, production]" });
    let { m } = await matrixFor({ environment: "production" });
    expect(row(m, "data-handling")!.active).toEqual({ layer: "enterprise" });
    ({ m } = await matrixFor({ environment: "staging" }));
    expect(row(m, "data-handling")!.active).toEqual({ layer: "project" });
    expect(row(m, "data-handling")!.cells.enterprise[0]!.status).toBe("out-of-scope");
    ({ m } = await matrixFor({ environment: "dev" }));
    expect(row(m, "data-handling")!.active).toBeNull();
  });

  it("agent and tenant scopes are applied the same way", async () => {
    h.skill("project", "research", { extra: "scope:\n  agents: [research-agent]\n  tenants: [t-1]" });
    expect(row((await matrixFor({ agent: "research-agent", tenant: "t-1" })).m, "research")!.active).not.toBeNull();
    expect(row((await matrixFor({ agent: "cot-agent" })).m, "research")!.cells.project[0]!.status).toBe("out-of-scope");
    expect(row((await matrixFor({ tenant: "t-2" })).m, "research")!.active).toBeNull();
  });

  it("the chosen user's personal layer is the one resolved; only admins may choose someone else", async () => {
    h.skill("personal", "notes", { userId: h.author.id });
    h.skill("project", "notes");
    const asAdmin = await matrixFor({ userId: h.author.id });
    expect(row(asAdmin.m, "notes")!.active).toEqual({ layer: "personal" });
    const own = await matrixFor({}, h.admin);
    expect(row(own.m, "notes")!.active).toEqual({ layer: "project" });
    await expect(matrixFor({ userId: h.admin.id }, h.author)).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(row((await matrixFor({}, h.author)).m, "notes")!.active).toEqual({ layer: "personal" });
  });
});
