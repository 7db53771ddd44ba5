// Refits the abstention model (server/runtime/search/abstention.ts) on the tune parts of the request sets only (the
// first and third catalog sets' tune parts, the 39-skill set's tune part), deterministically: signals gathered from
// the one ranking, signals chosen by greedy forward selection under 5-fold cross-validation within the tune parts, a
// logistic regression (Newton's method, L2) over the chosen ones, and the cut that answers 95% of the served tune
// requests. Prints the model as the constant to commit and the tune figures beside confidence alone.
// `--holdout` also prints the held-out figures (first and third hold-outs, the second and fourth sets, the 39-skill
// hold-out): look once, after the model is chosen; choosing anything on them is tuning on them.
// `--rules`: the shallow rule set instead ("also abstain when signal x is past c and confidence under t"), chosen by
// inner cross-validation inside each outer fold, beside confidence alone on the same folds.
// Run: node_modules/.bin/tsx scripts/fit-abstention.ts [--holdout] [--balanced] [--near=C] [--rules]   (needs ../shared)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { abstainReason, signalsOf, SIGNALS, type AbstentionInput, type AbstentionModel, type Signal, type Signals, MIN_EVIDENCE } from "../server/runtime/search/abstention";
import { installCatalog } from "../server/runtime/search/catalog";
import { CATALOG_REQUESTS_2_FILE, CATALOG_REQUESTS_3_FILE, CATALOG_REQUESTS_4_FILE, CATALOG_REQUESTS_FILE, loadRequests, REQUESTS_FILE, type RequestCase } from "../server/runtime/search/evaluate";
import { buildSearch } from "../server/runtime/search/follow";
import { makeLayerConfig } from "../server/runtime/registry/layers";
import { resolveAll } from "../server/runtime/registry/resolve";
import { SkillIndex } from "../server/runtime/registry/skill-index";
import { logistic } from "./bench/lib/logistic";
import type { SkillSearch } from "../server/runtime/search/engine";

const repoRoot = path.resolve(import.meta.dirname, "..");
const sharedDir = process.env.OMNIFORGE_SHARED_DIR ?? path.resolve(repoRoot, "../shared");
/** Share of the served tune requests that must be answered. */
const ANSWERED = 0.95;
/** L2 penalty on the standardised weights (not the bias). */
const LAMBDA = 1;
const FOLDS = 5;
/** `--balanced`: each class weighs as much in the fit (tried: no gain under cross-validation). */
const BALANCED = process.argv.includes("--balanced");
/** `--near=0.5`: fit on the rows under this confidence only, near the boundary (tried: no gain). */
const NEAR = Number(process.argv.find((a) => a.startsWith("--near="))?.slice(7) ?? 2);

interface Row {
  set: string;
  served: boolean;
  input: AbstentionInput;
  signals: Signals;
}

function rowsOf(search: SkillSearch, cases: RequestCase[], set: string): Row[] {
  return cases.map((c) => {
    let input: AbstentionInput | undefined;
    search.search(c.request, { decide: (x) => ((input = x), undefined) });
    // No hit at all: abstained on by any decision; kept as a row with no evidence.
    input ??= { searched: search.size, best: "", confidence: 0, evidence: 0, score: 0, nextScore: 0, words: [] };
    return { set, served: c.expect !== null, input, signals: signalsOf(input) };
  });
}

function gather() {
  const real = path.join(sharedDir, "fixtures", "real-skills");
  const realEntries = resolveAll(SkillIndex.build(makeLayerConfig({ home: path.join(real, ".no-home"), projectRoot: path.join(real, ".no-project"), catalogDirs: [real] }))).skills;
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "of-fit-abstention-"));
  try {
    const home = path.join(base, "home");
    installCatalog(path.join(sharedDir, "fixtures", "catalog"), home);
    const entries = resolveAll(SkillIndex.build(makeLayerConfig({ home, projectRoot: path.join(base, "project") }))).skills.filter((e) => e.loadable);
    const small = buildSearch(realEntries);
    const big = buildSearch(entries);
    const part = (cases: RequestCase[], split: RequestCase["split"]) => cases.filter((c) => c.split === split);
    const first = loadRequests(CATALOG_REQUESTS_FILE);
    const third = loadRequests(CATALOG_REQUESTS_3_FILE);
    const r39 = loadRequests(REQUESTS_FILE);
    const tune = [...rowsOf(big, part(first, "tune"), "first tune"), ...rowsOf(big, part(third, "tune"), "third tune"), ...rowsOf(small, part(r39, "tune"), "39 tune")];
    const held = () => [
      ...rowsOf(big, part(first, "holdout"), "first hold-out"),
      ...rowsOf(big, part(third, "holdout"), "third hold-out"),
      ...rowsOf(big, loadRequests(CATALOG_REQUESTS_2_FILE), "second (held out)"),
      ...rowsOf(big, loadRequests(CATALOG_REQUESTS_4_FILE), "fourth (held out)"),
      ...rowsOf(small, part(r39, "holdout"), "39 hold-out"),
    ];
    return { tune, held };
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}

/** Rows the common-words rule (or no hit) already abstains on: the model is not asked about them. */
const ruled = (r: Row) => r.signals.common < MIN_EVIDENCE;

/** Logistic regression of "served" on the signals (lib/logistic.ts). */
function fit(rows: Row[], signals: Signal[]): AbstentionModel {
  const f = logistic(
    rows.map((r) => signals.map((n) => r.signals[n])),
    rows.map((r) => r.served),
    { lambda: LAMBDA, balanced: BALANCED },
  );
  return { signals, ...f, cut: 0, cutPerLog: 0 };
}

const score = (m: AbstentionModel, r: Row) => m.bias + m.signals.reduce((a, n, i) => a + (m.weights[i]! * (r.signals[n] - m.mean[i]!)) / m.scale[i]!, 0);

/** The highest cut that still answers ANSWERED of the served rows (rows the common-words rule takes count against it). */
function cutFor(m: AbstentionModel, rows: Row[]): number {
  const served = rows.filter((r) => r.served);
  const allowed = Math.floor(served.length * (1 - ANSWERED)) - served.filter(ruled).length;
  const zs = served.filter((r) => !ruled(r)).map((r) => score(m, r)).sort((a, b) => a - b);
  if (allowed <= 0) return zs[0]! - 1e-9;
  return (zs[allowed - 1]! + zs[allowed]!) / 2;
}


/**
 * Weights from every row; the cut per catalog (each answers ANSWERED of its served rows), then a line in ln(skills)
 * through the two catalogs' cuts, as the confidence bar rises with the catalog.
 */
function fitted(rows: Row[], signals: Signal[]): AbstentionModel {
  const asked = rows.filter((r) => !ruled(r) && r.signals.confidence < NEAR);
  const m = fit(asked, signals);
  const sizes = [...new Set(rows.map((r) => r.input.searched))].sort((a, b) => a - b);
  const at = sizes.map((n) => ({ x: Math.log(n), cut: cutFor(m, rows.filter((r) => r.input.searched === n)) }));
  const perLog = at.length > 1 ? (at[at.length - 1]!.cut - at[0]!.cut) / (at[at.length - 1]!.x - at[0]!.x) : 0;
  return { ...m, cut: at[0]!.cut - perLog * at[0]!.x, cutPerLog: perLog };
}

interface Tally {
  served: number;
  answered: number;
  none: number;
  abstained: number;
}

function tally(rows: Row[], abstains: (r: Row) => boolean): Tally {
  const t = { served: 0, answered: 0, none: 0, abstained: 0 };
  for (const r of rows) {
    const a = abstains(r);
    if (r.served) {
      t.served++;
      if (!a) t.answered++;
    } else {
      t.none++;
      if (a) t.abstained++;
    }
  }
  return t;
}

const today = (r: Row) => !r.input.best || abstainReason(r.input, null) !== undefined;
const byModel = (m: AbstentionModel) => (r: Row) => !r.input.best || abstainReason(r.input, m) !== undefined;

/** Cross-validated tally of a signal set: folds by position, each fold decided by a model fitted on the others. */
function crossValidated(rows: Row[], signals: Signal[]): Tally {
  const total = { served: 0, answered: 0, none: 0, abstained: 0 };
  for (let f = 0; f < FOLDS; f++) {
    const train = rows.filter((_, i) => i % FOLDS !== f);
    const test = rows.filter((_, i) => i % FOLDS === f);
    const t = tally(test, byModel(fitted(train, signals)));
    for (const k of Object.keys(total) as (keyof Tally)[]) total[k] += t[k];
  }
  return total;
}

/** Better: more no-skill requests abstained on while at least ANSWERED of the served are answered; else more answered. */
const better = (a: Tally, b: Tally) => {
  const okA = a.answered >= ANSWERED * a.served;
  const okB = b.answered >= ANSWERED * b.served;
  if (okA !== okB) return okA;
  return a.abstained + a.answered > b.abstained + b.answered;
};

const show = (t: Tally) => `answered ${t.answered}/${t.served} (${((100 * t.answered) / t.served).toFixed(1)}%), abstained ${t.abstained}/${t.none} (${((100 * t.abstained) / t.none).toFixed(0)}%)`;

function table(rows: Row[], decisions: Record<string, (r: Row) => boolean>) {
  const sets = [...new Set(rows.map((r) => r.set))];
  for (const set of [...sets, "all"]) {
    const part = set === "all" ? rows : rows.filter((r) => r.set === set);
    console.log(`  ${set}`);
    for (const [name, d] of Object.entries(decisions)) console.log(`    ${name.padEnd(18)} ${show(tally(part, d))}`);
  }
}

type Extra = (s: Signals) => boolean;

/** Confidence alone, its bar per catalog where ANSWERED of the served `rows` are answered, after `extra` abstains first. */
function withBars(rows: Row[], extra: Extra): (r: Row) => boolean {
  const first = (r: Row) => ruled(r) || extra(r.signals);
  const bars = new Map<number, number>();
  for (const n of new Set(rows.map((r) => r.input.searched))) {
    const served = rows.filter((r) => r.served && r.input.searched === n);
    const allowed = Math.floor(served.length * (1 - ANSWERED)) - served.filter(first).length;
    const cs = served.filter((r) => !first(r)).map((r) => r.signals.confidence).sort((a, b) => a - b);
    bars.set(n, allowed <= 0 ? cs[0]! - 1e-9 : (cs[allowed - 1]! + cs[allowed]!) / 2);
  }
  return (r) => first(r) || r.signals.confidence < (bars.get(r.input.searched) ?? 0);
}

/** Every rule "signal past c and confidence under t": c at the signal's 5th-95th percentiles over `rows`. */
function ruleCandidates(rows: Row[]): { name: string; extra: Extra }[] {
  const out: { name: string; extra: Extra }[] = [{ name: "none", extra: () => false }];
  for (const s of SIGNALS) {
    if (s === "confidence" || s === "skills") continue;
    const values = [...new Set(rows.map((r) => r.signals[s]))].sort((a, b) => a - b);
    const cs = [...new Set([0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95].map((q) => values[Math.floor(q * (values.length - 1))]!))].sort((a, b) => a - b);
    for (const c of cs) {
      for (const below of [true, false]) {
        for (const t of [0.3, 0.4, 0.5]) out.push({ name: `${s} ${below ? "<" : ">"} ${c.toFixed(3)} and confidence < ${t}`, extra: (x) => (below ? x[s] < c : x[s] > c) && x.confidence < t });
      }
    }
  }
  return out;
}

function foldsOf(rows: Row[], folds: number, decide: (train: Row[]) => (r: Row) => boolean): Tally {
  const total = { served: 0, answered: 0, none: 0, abstained: 0 };
  for (let f = 0; f < folds; f++) {
    const t = tally(rows.filter((_, i) => i % folds === f), decide(rows.filter((_, i) => i % folds !== f)));
    for (const k of Object.keys(total) as (keyof Tally)[]) total[k] += t[k];
  }
  return total;
}

/** Nested cross-validation of the rule set: each outer fold's rule chosen by 4-fold cross-validation on the others. */
function nestedRules(rows: Row[]) {
  const candidates = ruleCandidates(rows);
  const worth = (t: Tally) => t.answered + t.abstained - (t.answered >= ANSWERED * t.served ? 0 : 100);
  const ruleTally = foldsOf(rows, FOLDS, (train) => {
    let pick = candidates[0]!;
    let top = -Infinity;
    for (const c of candidates) {
      const w = worth(foldsOf(train, 4, (inner) => withBars(inner, c.extra)));
      if (w > top) [pick, top] = [c, w];
    }
    console.log(`  a fold chose: ${pick.name}`);
    return withBars(train, pick.extra);
  });
  console.log(`rule set, nested: ${show(ruleTally)}`);
  console.log(`confidence alone on the same folds: ${show(foldsOf(rows, FOLDS, (train) => withBars(train, () => false)))}`);
}

const { tune, held } = gather();
if (process.argv.includes("--rules")) {
  nestedRules(tune);
  process.exit(0);
}
console.log(`tune rows: ${tune.length} (${tune.filter((r) => r.served).length} served)`);
console.log(`confidence alone, the committed rule (its bar was set on these parts): ${show(tally(tune, today))}`);
// Greedy forward selection from confidence: add the signal that most improves the cross-validated tally, while any does.
let chosen: Signal[] = ["confidence"];
let best = crossValidated(tune, chosen);
console.log(`cv [confidence]: ${show(best)}`);
for (;;) {
  let step: { s: Signal; t: Tally } | undefined;
  for (const s of SIGNALS) {
    if (chosen.includes(s)) continue;
    const t = crossValidated(tune, [...chosen, s]);
    console.log(`  cv [${[...chosen, s].join(", ")}]: ${show(t)}`);
    if (better(t, step?.t ?? best)) step = { s, t };
  }
  if (!step) break;
  chosen = [...chosen, step.s];
  best = step.t;
  console.log(`cv [${chosen.join(", ")}]: ${show(best)}`);
}
const model = fitted(tune, chosen);
const r4 = (n: number) => Math.round(n * 10_000) / 10_000;
console.log("\nexport const MODEL: AbstentionModel | null = " + JSON.stringify({ signals: model.signals, mean: model.mean.map(r4), scale: model.scale.map(r4), weights: model.weights.map(r4), bias: r4(model.bias), cut: r4(model.cut), cutPerLog: r4(model.cutPerLog) }) + ";\n");
const rounded: AbstentionModel = { ...model, mean: model.mean.map(r4), scale: model.scale.map(r4), weights: model.weights.map(r4), bias: r4(model.bias), cut: r4(model.cut), cutPerLog: r4(model.cutPerLog) };
console.log("tune parts:");
table(tune, { "confidence alone": today, model: byModel(rounded) });
if (process.argv.includes("--holdout")) {
  console.log("held out (measured once, never chosen on):");
  table(held(), { "confidence alone": today, model: byModel(rounded) });
}
