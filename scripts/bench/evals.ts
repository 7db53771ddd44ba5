// Trigger eval benchmark (issue 17): a 20-query set for one real skill (its own requests from the search request
// set should fire it, other skills' requests should not) run with the offline provider through the agent's
// selection path, over the 40 real skills and over a 1,000-skill catalog (the real skills plus synthetic ones).
// Target: under 20 ms per query with 1,000 skills in the catalog.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { OfflineProvider } from "../../server/runtime/agent/offline";
import { runTriggerEval, summarize, type TriggerCase } from "../../server/runtime/evals";
import { makeLayerConfig } from "../../server/runtime/registry/layers";
import { resolveAll } from "../../server/runtime/registry/resolve";
import { SkillIndex } from "../../server/runtime/registry/skill-index";
import { loadRequests } from "../../server/runtime/search/evaluate";
import { wordCatalog } from "../../server/runtime/search/synthetic";
import { median } from "./lib/stats";

export const name = "evals";

const repoRoot = path.resolve(import.meta.dirname, "../..");
const sharedDir = process.env.OMNIFORGE_SHARED_DIR ?? path.resolve(repoRoot, "../shared");

/** The skill with the most requests, its requests as should-trigger cases, then others' as should-not, 20 in all. */
function triggerSet(): { skillDir: string; cases: TriggerCase[] } {
  const requests = loadRequests().filter((r) => r.expect);
  const counts = new Map<string, number>();
  for (const r of requests) counts.set(r.expect!, (counts.get(r.expect!) ?? 0) + 1);
  const skillDir = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
  const own = requests.filter((r) => r.expect === skillDir).slice(0, 10);
  const others = requests.filter((r) => r.expect !== skillDir).filter((_, i) => i % 7 === 0).slice(0, 20 - own.length);
  return { skillDir, cases: [...own.map((r) => ({ query: r.request, should_trigger: true })), ...others.map((r) => ({ query: r.request, should_trigger: false }))] };
}

async function timed(catalogDirs: string[], skill: string, cases: TriggerCase[], scratch: string) {
  const index = SkillIndex.build(makeLayerConfig({ home: path.join(scratch, "no-home"), projectRoot: path.join(scratch, "no-project"), catalogDirs }));
  const skills = resolveAll(index).skills.length;
  const opts = { skill, cases, skills: { index }, searchIndex: index, provider: new OfflineProvider(), mode: "tool" as const, scratchDir: scratch };
  await runTriggerEval(opts); // warm: the search index is built once per catalog, as in the console
  const perQuery: number[] = [];
  let last = await runTriggerEval(opts);
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    last = await runTriggerEval(opts);
    perQuery.push((performance.now() - t0) / cases.length);
  }
  const s = summarize(last, skill);
  return { skills, msPerQuery: Math.round(median(perQuery) * 100) / 100, passed: `${s.passed}/${s.total}`, f1: s.f1 };
}

export async function run(): Promise<Record<string, unknown>> {
  const real = path.join(sharedDir, "fixtures", "real-skills");
  if (!fs.existsSync(real)) return { skipped: `no real skills at ${real} (set OMNIFORGE_SHARED_DIR)` };
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-bench-evals-"));
  try {
    const { skillDir, cases } = triggerSet();
    const skillName = /^name:\s*(.+)$/m.exec(fs.readFileSync(path.join(real, skillDir, "SKILL.md"), "utf8"))![1]!.trim();
    const r40 = await timed([real], skillName, cases, scratch);
    const synthetic = path.join(scratch, "synthetic");
    wordCatalog(synthetic, 1000 - r40.skills);
    const r1000 = await timed([real, synthetic], skillName, cases, scratch);
    return { skill: skillName, queries: cases.length, real40: r40, catalog1000: r1000, targetMsPerQueryAt1000: 20, met: r1000.msPerQuery < 20 };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
