// Draws the skills of the fifth catalog request set (server/runtime/search/catalog-requests-5.jsonl) before any
// request is written, so the set is not tilted toward skills that are easy to ask for: every SKILL.md folder of the
// shared catalog, sorted, shuffled with a seeded generator, the first 210 kept (a stub named in SKIPPED gives
// its place to the next draw), kinds dealt round-robin. `--assemble SERVED NONE` then reads the written requests
// (SERVED: one JSON object a line in draw order, {request, also?}; NONE: one {request} a line), interleaves them in a
// seeded shuffle and prints the set's lines with their ids.
// Run: node_modules/.bin/tsx scripts/sample-request-set.ts            (the draw: expect and kind a line)
//      node_modules/.bin/tsx scripts/sample-request-set.ts --assemble served.jsonl none.jsonl > catalog-requests-5.jsonl
import fs from "node:fs";
import path from "node:path";

const catalogRoot = path.resolve(import.meta.dirname, "../../shared/fixtures/catalog");
const SEED = 5;
const DRAWN = 210;
const KINDS = ["direct", "paraphrase", "symptom"] as const;
/** Drawn skills that no user could plausibly ask for (stubs), skipped while writing; the next draw takes their place. */
const SKIPPED: readonly string[] = [
  // Persona notes another agent reads about its partners ("not shown directly to users"), no task to ask for.
  "github__awesome-copilot/from-the-other-side-vega",
  "github__awesome-copilot/from-the-other-side-wiggins",
];

/** mulberry32: a small, well-known 32-bit generator; enough for a reproducible draw. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Every folder under the catalog root holding a SKILL.md, as `<repo>/<skill path>`. */
function skillFolders(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "SKILL.md") found.push(path.relative(root, dir).split(path.sep).join("/"));
    }
  };
  walk(root);
  return found.sort();
}

function draw(): { expect: string; kind: (typeof KINDS)[number] }[] {
  const order = shuffled(skillFolders(catalogRoot), generator(SEED));
  // A skipped draw's slot (and kind) goes to the next unused draw, so the other slots keep theirs.
  const spare = order.slice(DRAWN).filter((folder) => !SKIPPED.includes(folder));
  return order.slice(0, DRAWN).map((folder, i) => ({ expect: SKIPPED.includes(folder) ? spare.shift()! : folder, kind: KINDS[i % KINDS.length]! }));
}

function readLines(file: string): Record<string, unknown>[] {
  return fs.readFileSync(file, "utf8").split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line) as Record<string, unknown>);
}

function assemble(servedFile: string, noneFile: string): string[] {
  const drawn = draw();
  const served = readLines(servedFile);
  if (served.length !== drawn.length) throw new Error(`${servedFile}: ${served.length} requests for ${drawn.length} drawn skills`);
  const rows = [
    ...served.map((row, i) => ({ request: row.request, expect: drawn[i]!.expect, ...(row.also ? { also: row.also } : {}), kind: drawn[i]!.kind })),
    ...readLines(noneFile).map((row) => ({ request: row.request, expect: null, kind: "none" })),
  ];
  // A second stream of the same seed, so the order does not repeat the draw's.
  return shuffled(rows, generator(SEED * 7919)).map((row, i) => JSON.stringify({ id: `g${String(i + 1).padStart(3, "0")}`, ...row, split: "holdout" }));
}

const args = process.argv.slice(2);
if (args[0] === "--assemble") console.log(assemble(args[1]!, args[2]!).join("\n"));
else for (const row of draw()) console.log(JSON.stringify(row));
