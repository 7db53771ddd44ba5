// The layers view with 1,000 names: the matrix for 1,000 names (1,300 definitions over four layers) is built by the
// same resolution, with a payload the browser handles easily. The times are printed ([measure]), not asserted.
import { beforeAll, describe, expect, it } from "vitest";
import { approvals } from "../../../db/schema";
import { effectivePolicy } from "../policy/store";
import { indexFor } from "../catalog/catalog";
import { buildMatrix } from "./matrix";
import { syncApprovals } from "./approvals";
import { allDefinitions } from "./definitions";
import { changePolicy } from "./policy-change";
import { govHome } from "./test-support/governance";
import { useTestHome } from "../../test-support/test-home";

const h = useTestHome(govHome, { once: true });
beforeAll(() => {
  for (let i = 0; i < 1000; i++) {
    const name = `skill-${String(i).padStart(4, "0")}`;
    h.skill("project", name, { extra: i % 10 === 0 ? "scope:\n  environments: [production]" : "" });
    if (i % 5 === 0) h.skill("enterprise", name);
    if (i % 7 === 0) h.skill("plugin", name, { plugin: "tools" });
  }
});

describe("matrix at scale", () => {
  it("1,000 names resolve into the matrix quickly, with the overridden rows marked", async () => {
    await changePolicy(h.db, { op: "block", name: "skill-0003" }, { audit: h.audit, actor: { id: "a" } });
    const index = await indexFor(h.admin.id, h.dataHome);
    const policy = await effectivePolicy(h.db, { userId: h.admin.id });
    const t0 = performance.now();
    const m = buildMatrix(index, { policy, environment: "staging" });
    const ms = performance.now() - t0;
    const bytes = JSON.stringify(m).length;
    console.log(`[measure] matrix of ${m.counts.names} names / ${m.counts.definitions} definitions: ${ms.toFixed(1)} ms, ${(bytes / 1024).toFixed(0)} KiB JSON`);
    expect(m.counts.names).toBe(1000);
    expect(m.counts.overridden).toBe(m.rows.filter((r) => r.definitions > 1).length);
    expect(m.rows.find((r) => r.name === "skill-0003")!.cells.project[0]!.status).toBe("blocked");
    expect(m.rows.find((r) => r.name === "skill-0010")!.cells.project[0]!.status).toBe("out-of-scope");
    // Its time is printed, not asserted: on a busy shared machine any bound fails for the machine's sake.
    expect(bytes).toBeLessThan(1_000_000);
  });

  it("the approvals queue for 1,000 project skills is built in one go, and listing again creates nothing", async () => {
    await changePolicy(h.db, { op: "setRequireApproval", project: true }, { audit: h.audit, actor: { id: "a" } });
    const defs = await allDefinitions(h.dataHome, h.admin.id);
    let t0 = performance.now();
    const first = await syncApprovals(h.db, h.dataHome, defs);
    const firstMs = performance.now() - t0;
    const rows = (await h.db.select({ id: approvals.id }).from(approvals)).length;
    t0 = performance.now();
    const again = await syncApprovals(h.db, h.dataHome, defs);
    const againMs = performance.now() - t0;
    console.log(`[measure] approvals queue of ${first.length} project skills: first listing ${firstMs.toFixed(0)} ms (rows created), again ${againMs.toFixed(0)} ms`);
    // skill-0003 is blocked, so it does not wait for anything.
    expect(first).toHaveLength(999);
    expect(again.map((i) => i.id)).toEqual(first.map((i) => i.id));
    expect(rows).toBe(999);
    expect((await h.db.select({ id: approvals.id }).from(approvals)).length).toBe(rows);
  });
});
