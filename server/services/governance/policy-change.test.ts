import { describe, expect, it } from "vitest";
import { effectivePolicy, readStoredPolicy } from "../policy/store";
import { changePolicy } from "./policy-change";
import { applyPolicyChange } from "./policy-rules";
import { govHome } from "./test-support/governance";
import { useTestHome } from "../../test-support/test-home";

const h = useTestHome(govHome);

const actor = () => ({ audit: h.audit, actor: { id: h.admin.id, email: h.admin.email } });

describe("policy changes", () => {
  it("each change is stored and audited as policy_changed with the whole policy before and after", async () => {
    await changePolicy(h.db, { op: "block", name: "git-helper" }, actor());
    await changePolicy(h.db, { op: "disable", name: "code-review", layer: "project" }, actor());
    expect(await readStoredPolicy(h.db)).toEqual({ blockedNames: ["git-helper"], disabled: [{ name: "code-review", layer: "project" }] });
    const events = h.audit.events.filter((e) => e.type === "policy_changed");
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      actor: { id: "admin-id" },
      skill: "git-helper",
      details: { change: { op: "block", name: "git-helper" }, before: { blockedNames: [] }, after: { blockedNames: ["git-helper"] }, changed: true },
    });
    expect(events[1]!.details!.before).toEqual({ blockedNames: ["git-helper"], disabled: [] });
    await changePolicy(h.db, { op: "unblock", name: "git-helper" }, actor());
    await changePolicy(h.db, { op: "enable", name: "code-review", layer: "project" }, actor());
    expect(await readStoredPolicy(h.db)).toEqual({ blockedNames: [], disabled: [] });
  });

  it("approval switches and the allowlist reach the effective policy", async () => {
    await changePolicy(h.db, { op: "setRequireApproval", scripts: true }, actor());
    await changePolicy(h.db, { op: "setAllowlist", names: ["b", "a", "a"] }, actor());
    expect(await effectivePolicy(h.db)).toMatchObject({ requireApprovalForScripts: true, allowlist: ["a", "b"], approvedDigests: {} });
    await changePolicy(h.db, { op: "setRequireApproval", scripts: false, project: true }, actor());
    const p = await readStoredPolicy(h.db);
    expect(p.requireApprovalForScripts).toBeUndefined();
    expect(p.requireApprovalForProject).toBe(true);
  });

  it("bad input is refused with a message and changes nothing", async () => {
    const before = await readStoredPolicy(h.db);
    await expect(changePolicy(h.db, { op: "block", name: "  " }, actor())).rejects.toThrow(/a skill name is 1 to 1024 characters/);
    await expect(changePolicy(h.db, { op: "block", name: "x".repeat(1025) }, actor())).rejects.toThrow(/a skill name is 1 to 1024 characters/);
    await expect(changePolicy(h.db, { op: "disable", name: "csv", layer: "plugin", plugin: "../up" }, actor())).rejects.toThrow(/not a plugin name/);
    await expect(changePolicy(h.db, { op: "setForbiddenPatterns", patterns: ["/[unclosed/"] }, actor())).rejects.toThrow(/not a valid regular expression/);
    await expect(changePolicy(h.db, { op: "setForbiddenPatterns", patterns: ["/.*/"] }, actor())).rejects.toThrow(/every skill/);
    // What the registry's linear-time matcher cannot run is refused where it is written, not skipped later.
    await expect(changePolicy(h.db, { op: "setForbiddenPatterns", patterns: ["/^x(?!ok-)/"] }, actor())).rejects.toThrow(/lookaround/);
    await expect(changePolicy(h.db, { op: "setForbiddenPatterns", patterns: ["/(a)\\1/"] }, actor())).rejects.toThrow(/backreference/);
    await expect(changePolicy(h.db, { op: "setForbiddenPatterns", patterns: ["/x{0,999}y{0,999}z{0,999}/"] }, actor())).rejects.toThrow(/too large/);
    await expect(changePolicy(h.db, { op: "setForbiddenPatterns", patterns: [" "] }, actor())).rejects.toThrow(/empty pattern/);
    expect(await readStoredPolicy(h.db)).toEqual(before);
    expect(h.audit.events).toHaveLength(0);
  });

  it("names are held as the loader reads them (trimmed, NFKC): a rule matches the skill it names, whatever its characters", () => {
    let p = applyPolicyChange({ blockedNames: [], disabled: [] }, { op: "block", name: " cafe\u0301 " });
    p = applyPolicyChange(p, { op: "block", name: "with space" });
    p = applyPolicyChange(p, { op: "disable", name: "../../etc", layer: "project" });
    expect(p.blockedNames).toEqual(["café", "with space"]);
    expect(p.disabled).toEqual([{ name: "../../etc", layer: "project" }]);
  });

  it("a plugin rule names its plugin; enabling removes exactly that rule", () => {
    let p = applyPolicyChange({ blockedNames: [], disabled: [] }, { op: "disable", name: "csv", layer: "plugin", plugin: "alpha" });
    p = applyPolicyChange(p, { op: "disable", name: "csv", layer: "plugin", plugin: "beta" });
    p = applyPolicyChange(p, { op: "enable", name: "csv", layer: "plugin", plugin: "alpha" });
    expect(p.disabled).toEqual([{ name: "csv", layer: "plugin", plugin: "beta" }]);
  });
});
