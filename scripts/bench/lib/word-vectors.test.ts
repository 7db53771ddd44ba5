// The bench's word-vector trial (word-vectors.ts): reading the package's JSON and fusing the dense score.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeLayerConfig } from "../../../server/runtime/registry/layers";
import { resolveAll } from "../../../server/runtime/registry/resolve";
import { SkillIndex } from "../../../server/runtime/registry/skill-index";
import { buildSearch } from "../../../server/runtime/search/follow";
import { DenseTrial, readWinkVectors } from "./word-vectors";

const base = fs.mkdtempSync(path.join(os.tmpdir(), "of-word-vectors-"));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

/** A 100-dimensional vector along `axis` (with a little of `also`), written as the package writes it: the values, the norm, the index. */
const along = (axis: number, also = -1) => [...Array.from({ length: 100 }, (_, i) => (i === axis ? 2 : i === also ? 0.4 : 0)), 2.04, axis];

function vectorsFile(): string {
  const file = path.join(base, "vectors.json");
  const vectors = { 'say "hi"': along(6), ledger: along(0), bookkeeping: along(0, 5), sightings: along(1), track: along(2), totals: along(3), customer: along(4) };
  fs.writeFileSync(file, JSON.stringify({ precision: 8, dimensions: 100, words: Object.keys(vectors), vectors, unkVector: along(99) }));
  return file;
}

function skill(name: string, description: string): void {
  fs.mkdirSync(path.join(base, "skills", name), { recursive: true });
  fs.writeFileSync(path.join(base, "skills", name, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\n`);
}

describe("the word-vector trial", () => {
  const file = vectorsFile();

  it("reads only the wanted words, at unit length, past a key with an escaped quote", () => {
    const v = readWinkVectors(file, new Set(["bookkeeping", "absent"]));
    expect([...v.keys()]).toEqual(["bookkeeping"]);
    const b = v.get("bookkeeping")!;
    expect(b).toHaveLength(100);
    expect(Math.hypot(...b)).toBeCloseTo(1, 5);
    expect(b[0]! / b[5]!).toBeCloseTo(5, 5);
  });

  it("puts first, of two skills the words tie on, the one whose summary is near the request in meaning", () => {
    skill("bird-tools", "Track sightings totals for each customer.");
    skill("pay-tools", "Track ledger totals for each customer.");
    const entries = resolveAll(SkillIndex.build(makeLayerConfig({ home: path.join(base, "home"), projectRoot: path.join(base, "project"), catalogDirs: [path.join(base, "skills")] }))).skills;
    const search = buildSearch(entries);
    const request = "customer totals for bookkeeping";
    const r = search.search(request);
    const name = (id: string) => entries.find((e) => e.id === id)!.name;
    // By words alone they tie, and the tie goes by name.
    expect(r.hits.map((h) => name(h.id))).toEqual(["bird-tools", "pay-tools"]);
    expect(r.hits[0]!.score).toBe(r.hits[1]!.score);
    const trial = new DenseTrial(entries, file, [request]);
    expect(trial.coverage).toEqual({ summaryWords: 8, known: 5 });
    expect(trial.fuse(request, r).ids.map(name)).toEqual(["pay-tools", "bird-tools"]);
  });
});
