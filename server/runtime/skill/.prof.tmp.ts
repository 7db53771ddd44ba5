import fs from "node:fs"; import path from "node:path";
import { checkSkillDir, findSkillDirs } from "./index";
import { parseSimpleFrontmatter } from "./fast-yaml";
const dirs = findSkillDirs("/work/shared/fixtures/real-skills");
let fast = 0;
for (const d of dirs) { const t = fs.readFileSync(path.join(d, "SKILL.md"), "utf8").replace(/\r\n/g, "\n"); const m = /^---\n([\s\S]*?)^---[ \t]*$/m.exec(t); const ok = m && parseSimpleFrontmatter(m[1]!); if (ok) fast++; else console.log("fallback:", path.relative("/work/shared/fixtures/real-skills", d)); }
console.log("fast", fast, "of", dirs.length);
const t0 = performance.now(); for (let r = 0; r < 25; r++) for (const d of dirs) checkSkillDir(d, { rules: "omniforge" }); console.log(((performance.now() - t0) / 1000).toFixed(3), "ms per skill avg");
