// The layers matrix and the what-if listing read the one cached resolution (catalog/resolution.ts) that the skills
// list and the playground use: the same answers as a fresh resolveAll, one resolution per index version and
// context however many views ask, and a policy change or a new skill seen by the very next call.
// resolveAll is wrapped only to count its calls; it still does the real work on a real data home.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { resolveAll } from "../../runtime/registry/resolve";
import { resolutionFor } from "./context";
import { buildMatrix, effectiveSkills } from "./matrix";
import { changePolicy } from "./policy-change";
import { govHome } from "./test-support/governance";
import { useTestHome } from "../../test-support/test-home";

vi.mock("../../runtime/registry/resolve", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../runtime/registry/resolve")>();
  return { ...real, resolveAll: vi.fn(real.resolveAll) };
});
const resolutions = vi.mocked(resolveAll);

const h = useTestHome(govHome);
beforeEach(() => {
  h.skill("enterprise", "data-handling");
  h.skill("project", "data-handling", { extra: "priority: 1000" });
  h.skill("project", "release-notes");
  h.skill("project", "deploy", { extra: "scope:\n  environments: [production]" });
});

/** What one request of the layers page does: a fresh index lookup, policy read and context. */
const request = (w: Parameters<typeof resolutionFor>[3] = {}) => resolutionFor(h.db, h.dataHome, h.admin, w);
const block = (name: string) => changePolicy(h.db, { op: "block", name }, { audit: h.audit, actor: { id: h.admin.id, email: h.admin.email } });

describe("the matrix and the what-if read the cached resolution", () => {
  it("give the same answers as a fresh resolveAll", async () => {
    const { index, ctx } = await request({ environment: "production" });
    const fresh = resolveAll(index, ctx);
    const m = buildMatrix(index, ctx);
    expect(m.rows.map((r) => [r.name, r.active?.layer ?? null])).toEqual(Object.values(fresh.byName).map((r) => [r.name, r.active?.layer ?? null]).sort());
    expect(m.rows.map((r) => [r.name, r.active?.layer ?? null])).toEqual([
      ["data-handling", "enterprise"],
      ["deploy", "project"],
      ["release-notes", "project"],
    ]);
    expect(m.counts).toEqual({ names: 3, definitions: 4, overridden: 1, active: 3 });
    expect(effectiveSkills(index, ctx)).toEqual(fresh.skills.map((s) => ({ name: s.name, layer: s.layer, plugin: null, description: s.description })));
  });

  it("resolve once per index version and context, however many requests and views ask", async () => {
    resolutions.mockClear();
    const first = await request();
    const matrix = buildMatrix(first.index, first.ctx);
    const again = await request();
    expect(buildMatrix(again.index, again.ctx)).toEqual(matrix);
    expect(effectiveSkills(again.index, again.ctx).map((s) => s.name)).toEqual(["data-handling", "release-notes"]);
    expect(resolutions).toHaveBeenCalledTimes(1);
    // Another what-if context is its own resolution.
    const prod = await request({ environment: "production" });
    expect(effectiveSkills(prod.index, prod.ctx).map((s) => s.name)).toEqual(["data-handling", "deploy", "release-notes"]);
    expect(resolutions).toHaveBeenCalledTimes(2);
  });

  it("see a policy change and a new skill at the very next call", async () => {
    const before = await request();
    expect(buildMatrix(before.index, before.ctx).counts.active).toBe(2);
    await block("release-notes");
    const blocked = await request();
    expect(buildMatrix(blocked.index, blocked.ctx).rows.find((r) => r.name === "release-notes")?.cells.project.map((c) => c.status)).toEqual(["blocked"]);
    expect(effectiveSkills(blocked.index, blocked.ctx).map((s) => s.name)).toEqual(["data-handling"]);
    h.skill("personal", "my-notes");
    const added = await request();
    expect(buildMatrix(added.index, added.ctx).rows.map((r) => r.name)).toContain("my-notes");
    expect(effectiveSkills(added.index, added.ctx).map((s) => s.name)).toEqual(["data-handling", "my-notes"]);
  });
});
