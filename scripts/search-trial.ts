// A trial of the one ranking (server/runtime/search) on the request sets, for choosing a change by the rules of
// issue 36: knobs are chosen on the tune parts only (the first and third catalog sets' tune parts, the 39-skill
// set's), the held-out parts are measured once per idea, to report, never to choose. Prints one line per part
// (top-1 / top-3 counts, served answered, no-skill abstained) and, for tune parts only, the misses with the rank of
// the right skill.
//
//   node_modules/.bin/tsx scripts/search-trial.ts                      tune parts
//   node_modules/.bin/tsx scripts/search-trial.ts --held               tune and held-out parts
//   node_modules/.bin/tsx scripts/search-trial.ts --knobs '{"phrase":0.5}'   with knobs of TUNING changed
//   node_modules/.bin/tsx scripts/search-trial.ts --misses             tune misses (right skill's rank, first hit)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { makeLayerConfig } from "../server/runtime/registry/layers";
import { resolveAll } from "../server/runtime/registry/resolve";
import { SkillIndex } from "../server/runtime/registry/skill-index";
import type { SkillEntry } from "../server/runtime/registry/types";
import { installCatalog, installedDir } from "../server/runtime/search/catalog";
import { TUNING } from "../server/runtime/search/engine";
import { CATALOG_REQUESTS_2_FILE, CATALOG_REQUESTS_3_FILE, CATALOG_REQUESTS_4_FILE, CATALOG_REQUESTS_5_FILE, CATALOG_REQUESTS_6_FILE, CATALOG_REQUESTS_7_FILE, CATALOG_REQUESTS_FILE, loadRequests, measureRouting, type RequestCase } from "../server/runtime/search/evaluate";
import { buildSearch } from "../server/runtime/search/follow";

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const value = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const knobs = value("--knobs");
if (knobs) Object.assign(TUNING, JSON.parse(knobs) as Partial<typeof TUNING>);

const shared = process.env.OMNIFORGE_SHARED_DIR ?? path.resolve(import.meta.dirname, "../../shared");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "of-search-trial-"));
type Locate = string | ((rel: string) => string);

function part(label: string, entries: SkillEntry[], cases: RequestCase[], root: Locate, tune: boolean) {
  const search = buildSearch(entries);
  const m = measureRouting(entries, search, cases, root);
  const served = m.single;
  const n = (x: number) => Math.round(x * served);
  console.log(
    `${label.padEnd(14)} top-1 ${n(m.top1)}/${served} (${(m.top1 * 100).toFixed(1)})  top-3 ${n(m.top3)}/${served} (${(m.top3 * 100).toFixed(1)})  answered ${served - m.wrongAbstain}/${served}  abstained ${Math.round(m.abstainRecall * m.none)}/${m.none}`,
  );
  if (!tune || !flag("--misses")) return;
  const byId = new Map(entries.map((e) => [e.id, e]));
  const locate = typeof root === "string" ? (rel: string) => path.join(root, rel) : root;
  for (const miss of m.misses) {
    const c = cases.find((x) => x.id === miss.id)!;
    const hits = search.search(c.request, { limit: 20 }).hits;
    const want = new Set([c.expect, ...(c.also ?? [])].filter((x): x is string => !!x).map(locate));
    const at = hits.findIndex((h) => want.has(byId.get(h.id)!.dir));
    const rank = c.expect === null ? "none" : at < 0 ? ">20" : `#${at + 1}`;
    console.log(`  ${miss.id} [${c.kind ?? "?"}] want ${c.expect ?? "-"} at ${rank}${miss.abstain ? " (abstained)" : ""}; first ${hits[0]?.name ?? "-"}: ${c.request}`);
  }
}

try {
  const real = path.join(shared, "fixtures", "real-skills");
  const realEntries = resolveAll(SkillIndex.build(makeLayerConfig({ home: path.join(real, ".no-home"), projectRoot: path.join(real, ".no-project"), catalogDirs: [real] }))).skills;
  const home = path.join(tmp, "home");
  installCatalog(path.join(shared, "fixtures", "catalog"), home);
  const catalog = resolveAll(SkillIndex.build(makeLayerConfig({ home, projectRoot: path.join(tmp, "project") }))).skills.filter((e) => e.loadable);
  const at = (rel: string) => installedDir(home, rel);
  const first = loadRequests(CATALOG_REQUESTS_FILE);
  const third = loadRequests(CATALOG_REQUESTS_3_FILE);
  const small = loadRequests();
  const tune = (cs: RequestCase[]) => cs.filter((c) => c.split === "tune");
  const held = (cs: RequestCase[]) => cs.filter((c) => c.split === "holdout");
  part("first tune", catalog, tune(first), at, true);
  part("third tune", catalog, tune(third), at, true);
  part("39 tune", realEntries, tune(small), real, true);
  if (flag("--held")) {
    part("first held", catalog, held(first), at, false);
    part("third held", catalog, held(third), at, false);
    part("second", catalog, loadRequests(CATALOG_REQUESTS_2_FILE), at, false);
    part("fourth", catalog, loadRequests(CATALOG_REQUESTS_4_FILE), at, false);
    part("fifth", catalog, loadRequests(CATALOG_REQUESTS_5_FILE), at, false);
    part("sixth", catalog, loadRequests(CATALOG_REQUESTS_6_FILE), at, false);
    part("seventh", catalog, loadRequests(CATALOG_REQUESTS_7_FILE), at, false);
    part("39 held", realEntries, held(small), real, false);
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
