// The bench's untuned baseline (careful-bm25.ts): fielded BM25 over the skills a registry finds, typed words only.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeLayerConfig } from "../../../server/runtime/registry/layers";
import { resolveAll } from "../../../server/runtime/registry/resolve";
import { SkillIndex } from "../../../server/runtime/registry/skill-index";
import { buildSearch } from "../../../server/runtime/search/follow";
import { CarefulBm25 } from "./careful-bm25";

const base = fs.mkdtempSync(path.join(os.tmpdir(), "of-careful-bm25-"));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

function skill(name: string, description: string, body: string): void {
  fs.mkdirSync(path.join(base, "skills", name), { recursive: true });
  fs.writeFileSync(path.join(base, "skills", name, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`);
}

describe("the careful lexical baseline", () => {
  skill("pdf-forms", "Fill PDF forms and list their fields.", "# Usage\nOpen the file and fill each field.");
  skill("sheet-tools", "Read and write xlsx workbooks.", "# Formulas\nKeep formulas when saving.");
  skill("weather", "Forecast for a city.", "# Notes\nMentions a pdf export once, and when to take an umbrella.");
  const entries = resolveAll(SkillIndex.build(makeLayerConfig({ home: path.join(base, "home"), projectRoot: path.join(base, "project"), catalogDirs: [path.join(base, "skills")] }))).skills;
  const ranker = new CarefulBm25(entries);
  const names = (request: string) => ranker.rank(request).map((d) => path.basename(d));

  it("ranks a skill whose name and description carry the words above one whose body mentions them", () => {
    expect(names("fill in a pdf form")).toEqual(["pdf-forms", "weather"]);
    expect(names("do I need an umbrella")).toEqual(["weather"]);
  });

  it("reads only the typed words: no synonyms, no near spellings, and nothing for a request no skill shares a word with", () => {
    expect(names("edit my spreadsheet")).toEqual([]);
    expect(names("a workbok")).toEqual([]);
    // Where the one ranking finds it (spreadsheet ~ xlsx; workbok read as workbooks).
    const ours = buildSearch(entries);
    for (const request of ["edit my spreadsheet", "a workbok"]) expect(ours.search(request).hits[0]?.name, request).toBe("sheet-tools");
    expect(names("an xlsx workbook")).toEqual(["sheet-tools"]);
  });
});
