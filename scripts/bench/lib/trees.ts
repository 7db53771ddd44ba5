// Synthetic skill trees for the benchmarks (a helper: scripts/bench.ts runs only the .ts files directly in bench/).
import fs from "node:fs";
import path from "node:path";
import { makeLayerConfig, type LayerConfig, writableRoot } from "../../../server/runtime/registry/layers";

function skillText(n: string, i: number): string {
  const steps = Array.from({ length: 30 }, (_, k) => `${k + 1}. Step ${k + 1} of ${n}: check the input, run the tool, write down what changed.`).join("\n");
  return `---
name: ${n}
description: Synthetic skill number ${i} for the registry benchmark. Use when measuring how fast the index builds and resolves names across layers.
tags: [bench, group-${i % 17}]
priority: ${i % 3}
metadata:
  owner: bench
---
# ${n}

${steps}

See [the guide](references/guide.md) for details.
`;
}

/** N definitions spread over the four layers (some names in several layers), one folder level of grouping. */
export function generateLayerTree(base: string, n: number): LayerConfig {
  const config = makeLayerConfig({ home: path.join(base, "home"), projectRoot: path.join(base, "project") });
  const projectRoots = [".omniforge/skills", ".claude/skills", ".agents/skills"].map((r) => path.join(config.projectRoot, r));
  for (let p = 0; p < 7; p++) {
    const dir = path.join(config.home, "plugins", `plugin-${p}`);
    fs.mkdirSync(path.join(dir, "skills"), { recursive: true });
    fs.writeFileSync(path.join(dir, "plugin.json"), JSON.stringify({ name: `plugin-${p}`, installedAt: new Date(Date.UTC(2026, 0, 1 + p)).toISOString(), source: "bench" }));
  }
  const dup = Math.max(100, Math.floor(n / 10));
  for (let i = 0; i < n; i++) {
    const skill = i % 5 === 0 ? `shared-${i % dup}` : `skill-${i}`;
    const slot = i % 10;
    const root =
      slot === 0
        ? writableRoot(config, "enterprise")
        : slot <= 2
          ? writableRoot(config, "personal")
          : slot <= 7
            ? projectRoots[slot % 3]!
            : path.join(config.home, "plugins", `plugin-${i % 7}`, "skills");
    const dir = path.join(root, `g${Math.floor(i / 100)}`, skill);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "SKILL.md"), skillText(skill, i));
    if (i % 4 === 0) {
      fs.mkdirSync(path.join(dir, "references"));
      fs.writeFileSync(path.join(dir, "references", "guide.md"), "# guide\n");
    }
  }
  return config;
}

