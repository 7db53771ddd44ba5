// The overview through the router, on a real SQLite file and real skill folders: each figure is what its page shows.
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { SessionUser } from "../../../auth";
import { auditSinkFor, flushAudit } from "../../../services/audit";
import { settledRun } from "../../../services/evals";
import { skillMd, writeSkillOnDisk } from "../../../services/skills/test-support/skills";
import { useSkillsTestHome } from "../../../test-support/test-home";
import { callerFor } from "../../../test-support/caller";

const h = useSkillsTestHome();
beforeEach(() => {
  const project = path.join(h.dataHome.projectRoot, ".omniforge", "skills");
  writeSkillOnDisk(path.join(project, "pdf-tools"), { "SKILL.md": skillMd("pdf-tools") });
  writeSkillOnDisk(path.join(project, "deploy-helper"), { "SKILL.md": skillMd("deploy-helper"), "scripts/run.sh": "echo hi\n" });
  writeSkillOnDisk(path.join(project, "broken"), { "SKILL.md": "no frontmatter here\n" });
});

const as = (role: SessionUser["role"]): SessionUser => ({ id: `${role}-1`, email: `${role}@x.io`, name: "", role });
const caller = (u: SessionUser) => callerFor(h, u);

describe("overview", () => {
  it("counts the catalog, lists what is broken or waiting, and the last 24 hours from the audit", async () => {
    const admin = caller(as("admin"));
    await admin.policy.change({ op: "setRequireApproval", scripts: true });
    const audit = auditSinkFor(h.db, { stdout: false });
    audit.record({ type: "script_executed", actor: { id: "admin-1" }, skill: "deploy-helper", outcome: "failed", details: { exitCode: 2 } });
    audit.record({ type: "script_executed", actor: { id: "admin-1" }, skill: "deploy-helper", outcome: "ok", details: { exitCode: 0 } });
    audit.record({ type: "access_denied", actor: { id: "author-1" }, outcome: "refused", details: { procedure: "user.list" } });
    audit.record({ type: "skill_activated", actor: { id: "admin-1" }, skill: "pdf-tools", outcome: "ok" });
    flushAudit(h.db);

    const o = await admin.overview.get();
    expect(o.total).toBe(3);
    expect(o.byStatus).toMatchObject({ active: 1, invalid: 1, "pending-approval": 1 });
    expect(o.invalid.map((s) => s.name)).toEqual(["broken"]);
    expect(o.invalid[0]!.reason).toMatch(/does not load/);
    expect(o.pendingApprovals).toEqual([{ skill: "deploy-helper", layer: "project" }]);
    expect(o.last24h).toMatchObject({ scriptRuns: 2, scriptFailures: 1, refusals: 1, refusalsByKind: [{ type: "access_denied", one: "request", n: 1 }], activations: 1 });
    expect(o.busiest).toEqual([{ skill: "pdf-tools", n: 1 }]);

    // An author sees the catalog and only their own audit events; approvals are the admins' business.
    const mine = await caller(as("author")).overview.get();
    expect(mine).toMatchObject({ isAdmin: false, pendingCount: 0, last24h: { refusals: 1, scriptRuns: 0 } });
  });

  it("counts by layer, and the last trigger test of each skill with where to open it", async () => {
    writeSkillOnDisk(path.join(h.dataHome.home, "enterprise", "skills", "house-style"), { "SKILL.md": skillMd("house-style") });
    const admin = caller(as("admin"));
    const before = await admin.overview.get();
    expect(before.byLayer).toMatchObject({ enterprise: 1, project: 3 });
    expect(before.evals).toEqual([]);

    const pdf = { layer: "project" as const, skill: "pdf-tools" };
    const cases = [
      { query: "use pdf-tools on this file", should_trigger: true },
      { query: "what is the weather in Oslo", should_trigger: false },
    ];
    await admin.evals.saveSet({ ref: pdf, cases, baseDigest: null });
    const first = await admin.evals.start({ ref: pdf, provider: "offline", mode: "tool" });
    await settledRun(h.ctx({ id: "admin-1", email: "admin@x.io", role: "admin" }), first.id);
    const second = await admin.evals.start({ ref: pdf, provider: "offline", mode: "tool" });
    const run = await settledRun(h.ctx({ id: "admin-1", email: "admin@x.io", role: "admin" }), second.id);

    const after = await admin.overview.get();
    // One line per skill, its latest run, opening that skill's Evals tab (ref).
    expect(after.evals).toEqual([expect.objectContaining({ runId: second.id, skillName: "pdf-tools", ref: expect.objectContaining(pdf), f1: run.f1, total: 2 })]);
  });

  it("each figure is what the page it links to shows, and links only where the role may go", async () => {
    // The same name in two layers: the skills page says "3 skills (4 definitions across the layers)".
    writeSkillOnDisk(path.join(h.dataHome.home, "enterprise", "skills", "pdf-tools"), { "SKILL.md": skillMd("pdf-tools") });
    const audit = auditSinkFor(h.db, { stdout: false });
    const run = (outcome: "ok" | "failed" | "refused", details: Record<string, unknown>) =>
      audit.record({ type: "script_executed", actor: { id: "admin-1" }, skill: "deploy-helper", outcome, details });
    run("failed", { exitCode: 2 });
    run("failed", { exitCode: 137, timedOut: true });
    run("ok", { exitCode: 0 });
    run("refused", { exitCode: null });
    flushAudit(h.db);

    const admin = caller(as("admin"));
    const o = await admin.overview.get();
    const page = await admin.skill.list({});
    expect({ names: o.names, total: o.total }).toEqual({ names: page.names, total: page.total });
    expect(o).toMatchObject({ names: 3, total: 4 });
    // "failed scripts" opens the audit filtered to failed script runs: the same rows it counted.
    const failed = await admin.audit.list({ type: "script_executed", outcome: "failed" });
    expect(o.last24h.scriptFailures).toBe(failed.events.length);
    expect(o.last24h.scriptFailures).toBe(2);
    // "refusals" opens the audit filtered to refused events: the refused script run is one of them.
    const refused = await admin.audit.list({ outcome: "refused" });
    expect(o.last24h.refusals).toBe(refused.events.length);

    // A viewer may not open the audit page, so the overview offers no way there.
    expect(o.mayOpenAudit).toBe(true);
    expect((await caller(as("author")).overview.get()).mayOpenAudit).toBe(true);
    expect((await caller(as("viewer")).overview.get()).mayOpenAudit).toBe(false);
    await expect(caller(as("viewer")).audit.list({})).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("refusals: the Overview's figure, the audit chart and the table its link opens count the same rows (#41 item 5)", async () => {
    const audit = auditSinkFor(h.db, { stdout: false });
    const now = Date.now();
    const refused = (type: Parameters<typeof audit.record>[0]["type"], extra: Record<string, unknown> = {}, at = new Date(now - 60_000)) =>
      audit.record({ type, actor: { id: "admin-1" }, outcome: "refused", at, ...extra });
    refused("access_denied", { details: { procedure: "user.list" } });
    refused("access_denied", { actor: { id: "author-1" }, details: { procedure: "policy.get" } });
    refused("tool_restriction_violated", { skill: "pdf-tools", tool: "bash" });
    refused("tool_restriction_violated", { skill: "pdf-tools", tool: "bash" });
    refused("script_executed", { skill: "deploy-helper", details: { exitCode: null } });
    refused("login_failed", { actor: { id: "anonymous", email: "x@y.io" }, details: { reason: "invalid_credentials" } });
    // Outside the day, and not refused: in neither figure.
    refused("access_denied", {}, new Date(now - 25 * 3_600_000));
    audit.record({ type: "tool_restriction_violated", actor: { id: "admin-1" }, skill: "pdf-tools", tool: "read_file", outcome: "ok" });
    flushAudit(h.db);

    const admin = caller(as("admin"));
    const o = await admin.overview.get();
    const tile = o.last24h.refusals;
    expect(tile).toBe(6);
    expect(o.last24h.refusalsByKind.reduce((a, k) => a + k.n, 0)).toBe(tile);
    expect(o.last24h.refusalsByKind.map((k) => [k.many, k.n])).toEqual([
      ["requests", 2],
      ["tool calls", 2],
      ["sign-ins", 1],
      ["script runs", 1],
    ]);
    // The tile's link: the same window and outcome. The page's count, the chart and the table's rows all agree.
    const link = { ...o.last24h.window, outcome: "refused" as const };
    const summary = await admin.audit.summary(link);
    const table = await admin.audit.list({ ...link, limit: 100 });
    expect(summary.count).toBe(tile);
    expect(summary.refusals.total).toBe(tile);
    expect(summary.refusals.bars.reduce((a, b) => a + b.n, 0)).toBe(tile);
    expect(summary.refusals.bars).toContainEqual({ label: "tool calls · pdf-tools · bash", n: 2 });
    expect(table.events).toHaveLength(tile);
    // Charted over any range, the refusals add up to the refused rows of that range; another outcome has none.
    const week = { from: now - 7 * 86_400_000 };
    expect((await admin.audit.summary(week)).refusals.total).toBe((await admin.audit.list({ ...week, outcome: "refused", limit: 100 })).events.length);
    expect((await admin.audit.summary({ ...week, outcome: "ok" })).refusals).toEqual({ total: 0, byKind: [], bars: [] });
    // Past the chart's ten bars, one "other" bar keeps the sum.
    for (let i = 0; i < 12; i++) refused("tool_restriction_violated", { skill: `s-${i}`, tool: "bash" });
    flushAudit(h.db);
    const many = await admin.audit.summary(link);
    expect(many.refusals.bars).toHaveLength(11);
    expect(many.refusals.bars.at(-1)!.label).toBe("other");
    expect(many.refusals.bars.reduce((a, b) => a + b.n, 0)).toBe(many.count);
  });
});
