// Rights on the server: policies and approvals are admin-only whatever the UI shows; deploy targets follow roles.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionUser } from "../../../auth";
import { govHome } from "../../../services/governance/test-support/governance";
import { useTestHome } from "../../../test-support/test-home";
import { callerFor } from "../../../test-support/caller";

const h = useTestHome(govHome);

const as = (role: SessionUser["role"]): SessionUser => ({ id: `${role}-id`, email: `${role}@x.io`, name: "", role });
const caller = (user: SessionUser) => callerFor(h, user);

describe("policy router", () => {
  it("an author or viewer cannot read, preview or change policies or decide approvals (FORBIDDEN, audited)", async () => {
    for (const role of ["author", "viewer"] as const) {
      const c = caller(as(role));
      await expect(c.policy.change({ op: "block", name: "x" })).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(c.policy.get()).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(c.policy.preview({ op: "setRequireApproval", project: true })).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(c.policy.approvals()).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(c.policy.decide({ id: 1, decision: "approved", comment: "" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
    expect(h.audit.events.filter((e) => e.type === "access_denied")).toHaveLength(10);
    expect(h.audit.events.some((e) => e.type === "policy_changed")).toBe(false);
  });

  it("an admin blocks a project skill; the layers matrix of every user shows it blocked", async () => {
    h.skill("project", "git-helper");
    const admin = caller(as("admin"));
    await admin.policy.change({ op: "block", name: "git-helper" });
    expect((await admin.policy.get()).policy.blockedNames).toEqual(["git-helper"]);
    const m = await caller(as("author")).layers.matrix({});
    expect(m.rows.find((r) => r.name === "git-helper")).toMatchObject({ active: null, cells: { project: [{ status: "blocked" }] } });
  });

  it("a rule naming no skill is kept but said: the close name is suggested, a name of another layer named (#41)", async () => {
    h.skill("project", "no-such-skill");
    const admin = caller(as("admin"));
    const typo = await admin.policy.change({ op: "block", name: "no-such-skil" });
    expect(typo.policy.blockedNames).toEqual(["no-such-skil"]);
    expect(typo.unmatched).toEqual(['No skill is named "no-such-skil" today: the rule matches nothing until one appears. Did you mean "no-such-skill"?']);
    expect((await admin.policy.change({ op: "block", name: "no-such-skill" })).unmatched).toEqual([]);
    expect((await admin.policy.change({ op: "unblock", name: "no-such-skil" })).unmatched).toEqual([]);
    const layer = await admin.policy.change({ op: "disable", name: "no-such-skill", layer: "enterprise" });
    expect(layer.unmatched).toEqual(['No skill is named "no-such-skill" in the enterprise layer today: the rule matches nothing until one appears; "no-such-skill" exists in another layer.']);
  });

  it("an allowlist of many unknown names says ten of them and counts the rest", async () => {
    h.skill("project", "git-helper");
    const names = ["git-helper", ...Array.from({ length: 1000 }, (_, i) => `ghost-${i}`)];
    const r = await caller(as("admin")).policy.change({ op: "setAllowlist", names });
    expect(r.unmatched).toHaveLength(11);
    expect(r.unmatched[10]).toBe("990 more names match nothing today.");
  });

  it("bad policy input is a BAD_REQUEST with a message", async () => {
    await expect(caller(as("admin")).policy.change({ op: "setForbiddenPatterns", patterns: ["/(/"] })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/regular expression/),
    });
  });
});

describe("approvals through the routers", () => {
  it("review: the waiting text, the diff against what agents get now, and the doctor's findings (#41 item 3)", async () => {
    const admin = caller(as("admin"));
    await admin.policy.change({ op: "setRequireApproval", project: true });
    h.skill("plugin", "notes", { plugin: "kit", body: "# Notes\n\nWrite the notes.\n" });
    h.skill("project", "notes", { extra: "allowed-tools: Read", body: "# Notes\n\nWrite the notes.\n\n```bash\ncurl -s https://example.com/tags\n```\n" });
    h.skill("project", "fresh");
    const { items } = await admin.policy.approvals();
    const notes = await admin.policy.review({ id: items.find((i) => i.skill === "notes")!.id });
    expect(notes).toMatchObject({ skill: "notes", layer: "project", active: { layer: "plugin", plugin: "kit" }, truncated: false });
    expect(notes.text).toContain("curl -s https://example.com/tags");
    expect(notes.diff).toContain("+curl -s https://example.com/tags");
    expect(notes.diff).toContain("+allowed-tools: Read");
    expect(notes.findings.map((f) => [f.code, f.severity])).toContainEqual(["tools.missing", "high"]);
    const fresh = await admin.policy.review({ id: items.find((i) => i.skill === "fresh")!.id });
    expect(fresh).toMatchObject({ active: null, diff: null });
    expect(fresh.text).toContain("name: fresh");
    await expect(caller(as("author")).policy.review({ id: notes.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(admin.policy.review({ id: 9999 })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("the author reads the admin's rejection comment on the waiting version in the chain", async () => {
    const admin = caller(as("admin"));
    await admin.policy.change({ op: "setRequireApproval", project: true });
    h.skill("project", "risky");
    const author = caller(as("author"));
    expect((await author.layers.explain({ name: "risky" })).chain[0]).toMatchObject({ status: "pending-approval" });
    const { items } = await admin.policy.approvals();
    expect((await author.layers.explain({ name: "risky" })).chain[0]!.approval).toMatchObject({ status: "pending" });
    await admin.policy.decide({ id: items[0]!.id, decision: "rejected", comment: "uses a production token" });
    expect((await author.layers.explain({ name: "risky" })).chain[0]).toMatchObject({
      status: "pending-approval",
      approval: { status: "rejected", comment: "uses a production token", decidedBy: "admin@x.io" },
    });
    expect(h.audit.events.filter((e) => e.type === "approval_decided")).toHaveLength(1);
  });
});

describe("layers router", () => {
  it("what-if for another user is admin-only; deploy to enterprise is admin-only", async () => {
    h.skill("project", "tool");
    await expect(caller(as("author")).layers.matrix({ userId: "admin-id" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(caller(as("admin")).layers.matrix({ userId: "author-id" })).resolves.toMatchObject({ context: { userId: "author-id" } });
    await expect(caller(as("admin")).layers.matrix({ userId: "../etc" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller(as("author")).layers.deployPreview({ name: "tool", target: "enterprise" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(caller(as("viewer")).layers.deployPreview({ name: "tool", target: "personal" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const p = await caller(as("author")).layers.deployPreview({ name: "tool", target: "personal" });
    expect(p.to.where).toBe("<home>/users/author-id/skills/tool");
  });

  it("definition only reads SKILL.md files the index knows", async () => {
    const dir = h.skill("project", "tool", { body: "hello body\n" });
    const c = caller(as("viewer"));
    expect((await c.layers.definition({ id: dir })).content).toContain("hello body");
    await expect(c.layers.definition({ id: "/etc" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(c.layers.definition({ id: `${dir}/../../../../..` })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  // Issue #35 item 1: a project agent folder that is a link out of the project is listed, its SKILL.md never read.
  it("definition does not read through a project agent folder that links out of the project", async () => {
    const outside = path.join(h.dataHome.home, "outside-skills");
    fs.mkdirSync(outside, { recursive: true });
    fs.writeFileSync(path.join(outside, "SKILL.md"), "---\nname: secret\ndescription: The owner's notes. Use never.\n---\nprivate body\n");
    fs.mkdirSync(path.join(h.dataHome.projectRoot, ".codex"), { recursive: true });
    const link = path.join(h.dataHome.projectRoot, ".codex", "skills");
    fs.symlinkSync(outside, link);
    const c = caller(as("viewer"));
    await expect(c.layers.definition({ id: link })).rejects.toMatchObject({ code: "NOT_FOUND", message: expect.stringMatching(/outside the project/) });
    const list = await c.skill.list({ q: "private" });
    expect(list.rows).toEqual([]);
  });
});
