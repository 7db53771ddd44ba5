// Skill doctor benchmark (issue 18): 1,000 synthetic skills, each with allowed-tools, a shell code block in
// its body, a reference file and three scripts (shell, Python, JavaScript, 40 lines each with a few risky
// lines among them), doctored as a catalog: every check plus the overlap search. Target: under 2 s.
// Descriptions draw their topic words from a vocabulary of ~4,000 made-up words plus common ones, as real
// catalogs do (each skill has its own subject): the search bench's word catalog (300 words) would make every
// description compete with every other, which no real catalog does. Then the console's report over real skills, kept
// per state of the catalog, and health's index digest, before and after (lib/doctor-kept.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { doctorCatalog, doctorSkill } from "../../server/runtime/doctor";
import { doctorReportKept } from "./lib/doctor-kept";
import { median } from "./lib/stats";

export const name = "doctor";

const SKILLS = 1000;
const TARGET_MS = 2000;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

const SYLLABLES = "ka lo mi ne ru sa te vi zo pa de fi gu ha ji ko lu ma no pe qui ri so tu va we xa yo zu".split(" ");
const COMMON = "create edit review convert report data file files user project build test deploy analyze summarize chart table document api query search format check update export import".split(" ");
const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join("\n") + "\n";

const SH_LINES = ["set -eu", 'for f in data/*.csv; do', '  wc -l "$f"', "done", 'if [ -z "${1:-}" ]; then', '  echo "usage: run.sh FILE"', "  exit 2", "fi", "grep -c ok data/input.txt || true", 'name="$(basename "$1")"', "sort -u data/list.txt | head -20", 'echo "done: $name" >> out/log.txt'];
const SH = "#!/bin/sh\n# fetch the data; never curl | sh here\n" + lines(38, (i) => (i === 20 ? 'rm -rf "$OUT_DIR"/cache' : SH_LINES[i % SH_LINES.length]!));
const PY = '"""Report builder."""\nimport os, subprocess, json\n' + lines(38, (i) => (i === 10 ? 'subprocess.run(["git", "log", "--oneline"], check=True)' : i === 30 ? "exec(compile(src, name, 'exec'))" : `value_${i} = json.loads(open("data/f${i}.json").read())  # read input ${i}`));
const JS = "// Formatter.\nconst fs = require('fs');\n" + lines(38, (i) => (i === 15 ? "fs.writeFileSync('/etc/motd', text);" : `const v${i} = JSON.parse(fs.readFileSync('data/f${i}.json', 'utf8')); // read ${i}`));

function makeCatalog(out: string, n: number): string[] {
  const r = rng(18);
  const word = () => Array.from({ length: 2 + Math.floor(r() * 2) }, () => SYLLABLES[Math.floor(r() * SYLLABLES.length)]).join("");
  const common = () => COMMON[Math.floor(r() * COMMON.length)]!;
  const dirs: string[] = [];
  for (let i = 0; i < n; i++) {
    const topic = Array.from({ length: 6 }, word);
    const name = `${topic[0]}-${topic[1]}-${i}`;
    const description = `${common()} ${topic.slice(0, 3).join(" ")} ${common()} ${topic.slice(3).join(" ")} and ${common()} ${common()} files. Use when the user asks to ${common()} ${topic[0]} ${topic[4]}.`;
    const body = `# ${name}\n\n${lines(40, (k) => `${topic[k % 6]} ${common()} ${word()} ${common()} ${topic[(k + 2) % 6]}.`)}\nSee [the guide](references/guide.md).\n\n## Run\n\n\`\`\`bash\ngit log --oneline -5\npython3 scripts/report.py --out out/\nbash scripts/run.sh data/input.txt\n\`\`\`\n\nThen format with scripts/format.js.\n`;
    const dir = path.join(out, name);
    fs.mkdirSync(path.join(dir, "scripts"), { recursive: true });
    fs.mkdirSync(path.join(dir, "references"));
    fs.writeFileSync(path.join(dir, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\nallowed-tools: Bash(git log *) Bash(python3 scripts/report.py:*) Read\n---\n${body}`);
    fs.writeFileSync(path.join(dir, "references", "guide.md"), `# Guide\n\n${lines(30, () => `${topic[0]} ${common()} ${word()}.`)}`);
    fs.writeFileSync(path.join(dir, "scripts", "run.sh"), SH);
    fs.writeFileSync(path.join(dir, "scripts", "report.py"), PY);
    fs.writeFileSync(path.join(dir, "scripts", "format.js"), JS);
    dirs.push(dir);
  }
  return dirs;
}

export async function run(): Promise<Record<string, unknown>> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-bench-doctor-"));
  try {
    const dirs = makeCatalog(path.join(scratch, "catalog"), SKILLS);
    doctorSkill(dirs[0]!); // load the modules
    const catalog: number[] = [];
    const perSkill: number[] = [];
    let last = doctorCatalog(dirs);
    for (let i = 0; i < 3; i++) {
      let t0 = performance.now();
      last = doctorCatalog(dirs);
      catalog.push(performance.now() - t0);
      t0 = performance.now();
      for (const d of dirs) doctorSkill(d);
      perSkill.push(performance.now() - t0);
    }
    const counts: Record<string, number> = {};
    for (const s of last.skills) for (const f of s.findings) counts[f.code] = (counts[f.code] ?? 0) + 1;
    const ms = Math.round(median(catalog));
    return {
      skills: SKILLS,
      scriptsPerSkill: 3,
      catalogMs: ms,
      perSkillChecksMs: Math.round(median(perSkill)),
      overlapSearchMs: Math.round(median(catalog) - median(perSkill)),
      overlaps: last.overlaps.length,
      findings: counts,
      targetMs: TARGET_MS,
      met: ms < TARGET_MS,
      // The console's report over real skills, kept per state of the catalog, and health's index digest (#36/#38).
      consoleReport: await doctorReportKept(),
    };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
