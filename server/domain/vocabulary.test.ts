// One vocabulary (#13): the lists of layers, roles and disclosure modes are written once, in vocabulary.ts, and
// every other module imports them. A list typed out again drifts the day one of them changes.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, sourceFiles } from "../test-support/source-files";
import { DISCLOSURE_MODES, LAYERS, ROLES } from "./vocabulary";

/** `"a", "b", "c"` with any spacing or quote style: how a retyped list reads in code. */
const asWritten = (list: readonly string[]) => new RegExp(list.map((x) => `["'\`]${x}["'\`]`).join(String.raw`\s*,\s*`));

describe("the domain vocabulary", () => {
  it("is the only place the lists of layers, roles and disclosure modes are written out", () => {
    const files = ["app", "components", "db", "scripts", "server"].flatMap((d) => sourceFiles(d, { tests: false }));
    expect(files.length).toBeGreaterThan(100);
    const own = path.join("server", "domain", "vocabulary.ts");
    const retyped = files.flatMap((f) => {
      if (f === own) return [];
      const text = fs.readFileSync(path.join(repoRoot, f), "utf8");
      return [LAYERS, ROLES, DISCLOSURE_MODES].filter((list) => asWritten(list).test(text)).map((list) => `${f}: ${list.join(", ")}`);
    });
    expect(retyped).toEqual([]);
  });
});
