import { describe, expect, it } from "vitest";
import { readStoredPolicy } from "../policy/store";
import { resolutionFor } from "./context";
import { buildMatrix } from "./matrix";
import { changePolicy } from "./policy-change";
import { previewPolicyChange } from "./policy-preview";
import { govHome } from "./test-support/governance";
import { useTestHome } from "../../test-support/test-home";

const h = useTestHome(govHome);

const preview = (change: Parameters<typeof previewPolicyChange>[3]) => previewPolicyChange(h.db, h.dataHome, h.admin, change);
const activeNames = async () => {
  const { index, ctx } = await resolutionFor(h.db, h.dataHome, h.admin);
  return buildMatrix(index, ctx).rows.filter((r) => r.active).map((r) => r.name);
};

describe("policy change preview (#41 item 2)", () => {
  it("says which skills a switch deactivates, stores nothing, and the applied change does exactly that", async () => {
    for (const n of ["deploy-notes", "lint-fix", "release", "triage"]) h.skill("project", n);
    h.skill("enterprise", "house-style");
    const p = await preview({ op: "setRequireApproval", project: true });
    expect(p.lines).toEqual(["4 skills become inactive until approved: deploy-notes, lint-fix, release, triage"]);
    expect(p.deactivated.map((e) => [e.name, e.status])).toEqual([
      ["deploy-notes", "pending-approval"],
      ["lint-fix", "pending-approval"],
      ["release", "pending-approval"],
      ["triage", "pending-approval"],
    ]);
    // A preview is no change: nothing stored, nothing audited.
    expect((await readStoredPolicy(h.db)).requireApprovalForProject).toBeUndefined();
    expect(h.audit.events).toHaveLength(0);
    const before = await activeNames();
    await changePolicy(h.db, { op: "setRequireApproval", project: true }, { audit: h.audit, actor: { id: h.admin.id, email: h.admin.email } });
    const after = await activeNames();
    expect(before.filter((n) => !after.includes(n))).toEqual(p.deactivated.map((e) => e.name));
    // Turning it off again brings them back, said the other way round.
    expect((await preview({ op: "setRequireApproval", project: false })).lines).toEqual(["4 skills become active: deploy-notes, lint-fix, release, triage"]);
  });

  it("a change that moves no definition says so; a disabled definition names the one agents get instead", async () => {
    h.skill("plugin", "notes", { plugin: "kit" });
    h.skill("project", "notes");
    expect((await preview({ op: "setAdminsEditPersonal", allow: true })).lines).toEqual(["Nothing changes for any skill."]);
    expect((await preview({ op: "block", name: "no-such-skill" })).lines).toEqual(["Nothing changes for any skill."]);
    expect((await preview({ op: "disable", name: "notes", layer: "project" })).lines).toEqual(["notes: agents get the plugin (kit) definition instead of the project one"]);
    expect((await preview({ op: "block", name: "notes" })).lines).toEqual(["1 skill becomes inactive (blocked by the policy): notes"]);
  });

  it("a long list names a dozen and counts the rest; bad input is refused as the change would be", async () => {
    for (let i = 0; i < 30; i++) h.skill("project", `s-${String(i).padStart(2, "0")}`);
    const p = await preview({ op: "setAllowlist", names: ["s-00"] });
    expect(p.deactivated).toHaveLength(29);
    expect(p.lines[0]).toMatch(/^29 skills become inactive .*: s-01, s-02, .*, s-12 and 17 more$/);
    await expect(preview({ op: "setForbiddenPatterns", patterns: ["/(/"] })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
