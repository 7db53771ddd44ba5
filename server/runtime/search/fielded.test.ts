import { describe, expect, it } from "vitest";
import { FieldedIndex, type FieldParams } from "./fielded";

const params: FieldParams[] = [
  { weight: 3, b: 0.3 },
  { weight: 1, b: 0.75 },
];
const scores = (ix: FieldedIndex, term: string, only?: ReadonlySet<string>) => {
  const out: Record<string, number> = {};
  ix.score(term, params, 2, only, (id, s) => (out[id] = s));
  return out;
};

describe("FieldedIndex", () => {
  it("scores a term the same after a batch of searches as a fresh index would, across adds, removes and new parameters", () => {
    const ix = new FieldedIndex(2);
    ix.add("a", [["pdf", "form"], ["fill", "pdf", "fields"]]);
    ix.add("b", [["invoice"], ["pdf", "invoice", "email"]]);
    const first = scores(ix, "pdf");
    expect(scores(ix, "pdf")).toEqual(first);
    // A change of the collection (document count, average lengths) must reach a term weighed before it.
    ix.add("c", [["pdf", "merge"], ["merge", "many", "pdf", "files", "into", "one"]]);
    ix.remove("b");
    const fresh = new FieldedIndex(2);
    fresh.add("a", [["pdf", "form"], ["fill", "pdf", "fields"]]);
    fresh.add("c", [["pdf", "merge"], ["merge", "many", "pdf", "files", "into", "one"]]);
    expect(scores(ix, "pdf")).toEqual(scores(fresh, "pdf"));
    expect(Object.keys(scores(ix, "pdf")).sort()).toEqual(["a", "c"]);
    // Other parameters weigh again; `only` filters.
    const other: FieldParams[] = [{ weight: 1, b: 0 }, params[1]!];
    const a: Record<string, number> = {};
    ix.score("pdf", other, 2, undefined, (id, s) => (a[id] = s));
    expect(a.a).not.toBe(scores(ix, "pdf").a);
    expect(Object.keys(scores(ix, "pdf", new Set(["c"])))).toEqual(["c"]);
  });
});
