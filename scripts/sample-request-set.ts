// Draws the skills of a catalog request set (server/runtime/search/catalog-requests-<set>.jsonl) before any request is
// written, so the set is not tilted toward skills that are easy to ask for: every SKILL.md folder of the shared catalog,
// sorted, shuffled with a seeded generator, the first COUNT kept (a stub named in SKIPPED gives its place to the next
// draw), kinds dealt round-robin. `--assemble SERVED NONE` then reads the written requests (SERVED: one JSON object a
// line in draw order, {request, also?}; NONE: one {request} a line), interleaves them in a seeded shuffle and writes
// the set's lines with their ids (PREFIX and a number) to catalog-requests-<set>.jsonl, or prints them without --set.
// The defaults draw the fifth set (seed 5, 210 skills, ids g001...); the sixth is seed 6, 210, h; the seventh seed 7, 210, i.
// Run: node_modules/.bin/tsx scripts/sample-request-set.ts [--seed 6 --count 210]           (the draw: expect and kind a line)
//      node_modules/.bin/tsx scripts/sample-request-set.ts --seed 6 --prefix h --set 6 --assemble served.jsonl none.jsonl
import fs from "node:fs";
import path from "node:path";

const catalogRoot = path.resolve(import.meta.dirname, "../../shared/fixtures/catalog");
const KINDS = ["direct", "paraphrase", "symptom"] as const;
/** Drawn skills that no user could plausibly ask for (stubs), skipped while writing; the next draw takes their place. */
const SKIPPED: readonly string[] = [
  // Persona notes another agent reads about its partners ("not shown directly to users"), no task to ask for.
  "github__awesome-copilot/from-the-other-side-vega",
  "github__awesome-copilot/from-the-other-side-wiggins",
  // The sixth draw's: two more such notes.
  "github__awesome-copilot/from-the-other-side-quinn",
  "github__awesome-copilot/from-the-other-side-anitta",
];

interface Options {
  seed: number;
  count: number;
  prefix: string;
  /** The set's number, naming the file --assemble writes; without it the lines go to stdout. */
  set?: number;
  assemble?: [served: string, none: string];
}

function options(args: string[]): Options {
  const out: Options = { seed: 5, count: 210, prefix: "g" };
  const whole = (flag: string, value: string | undefined): number => {
    if (!value || !/^\d+$/.test(value)) throw new Error(`${flag} takes a whole number, got ${value ?? "nothing"}`);
    return Number(value);
  };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i]!;
    if (flag === "--seed") out.seed = whole(flag, args[++i]);
    else if (flag === "--count") out.count = whole(flag, args[++i]);
    else if (flag === "--set") out.set = whole(flag, args[++i]);
    else if (flag === "--prefix") {
      const value = args[++i];
      if (!value || !/^[a-z]+$/.test(value)) throw new Error(`--prefix takes lower-case letters, got ${value ?? "nothing"}`);
      out.prefix = value;
    } else if (flag === "--assemble") {
      if (!args[i + 1] || !args[i + 2]) throw new Error("--assemble takes two files: the served requests and the no-skill ones");
      out.assemble = [args[i + 1]!, args[i + 2]!];
      i += 2;
    } else throw new Error(`unknown argument ${flag}`);
  }
  return out;
}

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

function draw(seed: number, count: number): { expect: string; kind: (typeof KINDS)[number] }[] {
  const order = shuffled(skillFolders(catalogRoot), generator(seed));
  // A skipped draw's slot (and kind) goes to the next unused draw, so the other slots keep theirs.
  const spare = order.slice(count).filter((folder) => !SKIPPED.includes(folder));
  return order.slice(0, count).map((folder, i) => ({ expect: SKIPPED.includes(folder) ? spare.shift()! : folder, kind: KINDS[i % KINDS.length]! }));
}

function readLines(file: string): Record<string, unknown>[] {
  return fs.readFileSync(file, "utf8").split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line) as Record<string, unknown>);
}

function assemble({ seed, count, prefix }: Options, servedFile: string, noneFile: string): string[] {
  const drawn = draw(seed, count);
  const served = readLines(servedFile);
  if (served.length !== drawn.length) throw new Error(`${servedFile}: ${served.length} requests for ${drawn.length} drawn skills`);
  const rows = [
    ...served.map((row, i) => ({ request: row.request, expect: drawn[i]!.expect, ...(row.also ? { also: row.also } : {}), kind: drawn[i]!.kind })),
    ...readLines(noneFile).map((row) => ({ request: row.request, expect: null, kind: "none" })),
  ];
  // A second stream of the same seed, so the order does not repeat the draw's.
  return shuffled(rows, generator(seed * 7919)).map((row, i) => JSON.stringify({ id: `${prefix}${String(i + 1).padStart(3, "0")}`, ...row, split: "holdout" }));
}

const chosen = options(process.argv.slice(2));
if (chosen.assemble) {
  const text = assemble(chosen, ...chosen.assemble).join("\n") + "\n";
  if (chosen.set === undefined) process.stdout.write(text);
  else fs.writeFileSync(path.resolve(import.meta.dirname, `../server/runtime/search/catalog-requests-${chosen.set}.jsonl`), text);
} else for (const row of draw(chosen.seed, chosen.count)) console.log(JSON.stringify(row));
