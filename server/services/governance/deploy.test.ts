// Deploy: the preview says, for each context worth knowing, which definition agents get before and after,
// without writing anything; the deploy then copies atomically and records skill_deployed.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { indexFor } from "../catalog/catalog";
import { effectivePolicy } from "../policy/store";
import { checkDeployRight, executeDeploy, previewDeploy } from "./deploy";
import { changePolicy } from "./policy-change";
import { govHome } from "./test-support/governance";
import { useTestHome } from "../../test-support/test-home";

const h = useTestHome(govHome);

const actor = () => ({ audit: h.audit, actor: { id: h.admin.id, email: h.admin.email } });

describe("deploy preview", () => {
  it("lists the default context and each scope value, with the active definition before and after, and writes nothing", async () => {
    h.skill("project", "data-handling", { body: "project rules\n" });
    h.skill("project", "other", { extra: "scope:\n  environments: [production, staging]\n  agents: [cot-agent]" });
    const index = await indexFor(h.admin.id, h.dataHome);
    const p = previewDeploy(index, h.dataHome, { name: "data-handling", target: "enterprise" }, await effectivePolicy(h.db));
    expect(p.rows.map((r) => r.label)).toEqual(["default (no environment, agent or tenant)", "environment=production", "environment=staging", "agent=cot-agent"]);
    for (const r of p.rows) {
      expect(r.before).toMatchObject({ layer: "project", isCopy: false });
      expect(r.after).toMatchObject({ layer: "enterprise", isCopy: true, where: "<home>/enterprise/skills/data-handling" });
      expect(r.changes).toBe(true);
    }
    expect(p.changedContexts).toBe(4);
    expect(fs.existsSync(path.join(h.root("enterprise"), "data-handling"))).toBe(false);
  });

  it("a copy into a lower layer changes nothing and says why (enterprise cannot be overridden)", async () => {
    h.skill("enterprise", "review", { extra: "priority: 0" });
    h.skill("plugin", "review", { plugin: "tools", extra: "priority: 1000" });
    const index = await indexFor(h.admin.id, h.dataHome);
    const fromId = index.definitions("review").find((e) => e.layer === "plugin")!.id;
    const p = previewDeploy(index, h.dataHome, { name: "review", fromId, target: "project" }, await effectivePolicy(h.db));
    expect(p.changedContexts).toBe(0);
    expect(p.rows[0]).toMatchObject({ changes: false, copyStatus: "shadowed", after: { layer: "enterprise" } });
    expect(p.rows[0]!.copyReason).toMatch(/shadowed by the enterprise definition/);
  });

  it("the preview applies policy: a copy that needs approval would not become active", async () => {
    await changePolicy(h.db, { op: "setRequireApproval", project: true }, actor());
    h.skill("personal", "tool", { userId: h.admin.id });
    const index = await indexFor(h.admin.id, h.dataHome);
    // Deploying the personal skill to the project layer: the personal one still wins for this user.
    const p = previewDeploy(index, h.dataHome, { name: "tool", target: "project" }, await effectivePolicy(h.db, { userId: h.admin.id }));
    expect(p.rows[0]).toMatchObject({ changes: false, copyStatus: "pending-approval" });
  });
});

describe("deploy", () => {
  it("the preview lists the source's doctor findings; the console deploys one with a high finding only when told to, and the audit names them (#41)", async () => {
    h.skill("project", "fetcher", { extra: "allowed-tools: Read", body: "# Fetch\n\n```bash\ncurl -s https://example.com/data\n```\n" });
    const index = await indexFor(h.admin.id, h.dataHome);
    const policy = await effectivePolicy(h.db);
    const p = previewDeploy(index, h.dataHome, { name: "fetcher", target: "enterprise" }, policy);
    expect(p.findings).toContainEqual(expect.objectContaining({ code: "tools.missing", severity: "high", file: "SKILL.md" }));
    // Silenced by the doctor policy: not listed.
    expect(previewDeploy(index, h.dataHome, { name: "fetcher", target: "enterprise" }, policy, ["tools.*"]).findings).toEqual([]);
    const input = { name: "fetcher", target: "enterprise" as const, replace: false, expectDigest: p.from.digest };
    expect(() => executeDeploy(index, h.dataHome, { ...input, acceptFindings: false }, policy, actor())).toThrow(/1 high doctor finding \(tools\.missing\).*deploy anyway/);
    expect(fs.existsSync(path.join(h.root("enterprise"), "fetcher"))).toBe(false);
    executeDeploy(index, h.dataHome, { ...input, acceptFindings: true }, policy, actor());
    const ev = h.audit.events.find((e) => e.type === "skill_deployed");
    expect(ev?.details).toMatchObject({ deployedAnyway: [expect.stringMatching(/^tools\.missing \(SKILL\.md:\d+\)$/)] });
  });

  it("copies the skill folder, reports the change and records skill_deployed", async () => {
    h.skill("project", "data-handling", { scripts: { "check.sh": "echo ok\n" } });
    const index = await indexFor(h.admin.id, h.dataHome);
    const policy = await effectivePolicy(h.db);
    const p = previewDeploy(index, h.dataHome, { name: "data-handling", target: "enterprise" }, policy);
    const r = executeDeploy(index, h.dataHome, { name: "data-handling", target: "enterprise", replace: false, expectDigest: p.from.digest }, policy, actor());
    const target = path.join(h.root("enterprise"), "data-handling");
    expect(fs.readFileSync(path.join(target, "scripts", "check.sh"), "utf8")).toBe("echo ok\n");
    expect(r.message).toMatch(/changes from the project definition .* to the enterprise definition/);
    expect(index.definitions("data-handling").map((e) => e.layer)).toEqual(["enterprise", "project"]);
    expect(h.audit.events.find((e) => e.type === "skill_deployed")).toMatchObject({
      skill: "data-handling",
      layer: "enterprise",
      digest: p.from.digest,
      details: { replaced: false, via: "console", changedContexts: ["default (no environment, agent or tenant)"] },
    });
    // Deploying again needs an explicit replace.
    const fromId = index.definitions("data-handling").find((e) => e.layer === "project")!.id;
    expect(() => executeDeploy(index, h.dataHome, { name: "data-handling", fromId, target: "enterprise", replace: false }, policy, actor())).toThrow(/already exists/);
    expect(executeDeploy(index, h.dataHome, { name: "data-handling", fromId, target: "enterprise", replace: true }, policy, actor()).replaced).toBe(true);
  });

  it("refuses when the source changed since the preview", async () => {
    const dir = h.skill("project", "x");
    const index = await indexFor(h.admin.id, h.dataHome);
    const p = previewDeploy(index, h.dataHome, { name: "x", target: "enterprise" }, await effectivePolicy(h.db));
    fs.appendFileSync(path.join(dir, "SKILL.md"), "edited\n");
    index.refresh([dir]);
    const policy = await effectivePolicy(h.db);
    expect(() =>
      executeDeploy(index, h.dataHome, { name: "x", target: "enterprise", replace: false, expectDigest: p.from.digest }, policy, actor()),
    ).toThrow(/changed since the preview/);
    expect(fs.existsSync(path.join(h.root("enterprise"), "x"))).toBe(false);
  });

  it("a name that is not a plain folder name is refused before any path is built", async () => {
    h.skill("project", "sneaky", { name: "../../escape" });
    const index = await indexFor(h.admin.id, h.dataHome);
    expect(index.definitions("../../escape")).toHaveLength(1);
    const policy = await effectivePolicy(h.db);
    expect(() => previewDeploy(index, h.dataHome, { name: "../../escape", target: "enterprise" }, policy)).toThrow(/must not contain/);
  });

  it("rights: admins deploy anywhere, authors to project and personal, viewers nowhere", () => {
    expect(() => checkDeployRight(h.admin, "enterprise")).not.toThrow();
    expect(() => checkDeployRight(h.author, "project")).not.toThrow();
    expect(() => checkDeployRight(h.author, "personal")).not.toThrow();
    expect(() => checkDeployRight(h.author, "enterprise")).toThrow(/only administrators/);
    expect(() => checkDeployRight(h.viewer, "project")).toThrow(/viewers cannot/);
    expect(() => checkDeployRight(h.admin, "plugin")).toThrow(/installed/);
  });
});
