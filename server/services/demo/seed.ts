// Writes the demo skills into the layer folders of a fresh data home. Runs once: a marker file records it,
// so later starts keep whatever people changed or deleted.
import fs from "node:fs";
import path from "node:path";
import type { DataHome } from "../../config";
import { PRIVATE_FILE_MODE } from "../../domain/limits";
import { DEMO_SKILLS, type DemoSkill } from "./skills";

function layerDir(dh: DataHome, s: DemoSkill, adminId: string): string {
  switch (s.layer) {
    case "enterprise":
      return path.join(dh.home, "enterprise", "skills", s.dir);
    case "personal":
      return path.join(dh.home, "users", adminId, "skills", s.dir);
    case "project":
      return path.join(dh.projectRoot, ".omniforge", "skills", s.dir);
    case "plugin":
      return path.join(dh.home, "plugins", s.plugin!, "skills", s.dir);
  }
}

export function seedDemoSkills(dh: DataHome, adminId: string): { seeded: boolean; count: number } {
  const marker = path.join(dh.home, ".demo-seeded");
  if (fs.existsSync(marker)) return { seeded: false, count: 0 };
  for (const skill of DEMO_SKILLS) {
    const dir = layerDir(dh, skill, adminId);
    if (fs.existsSync(dir)) continue;
    for (const f of skill.files) {
      const file = path.join(/*turbopackIgnore: true*/ dir, f.path);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, f.content, { mode: f.mode ?? 0o644 });
    }
    if (skill.layer === "plugin") {
      const manifest = path.join(dh.home, "plugins", skill.plugin!, "plugin.json");
      if (!fs.existsSync(manifest)) {
        fs.writeFileSync(
          manifest,
          JSON.stringify({ name: skill.plugin, installedAt: new Date().toISOString(), source: "demo" }, null, 2) + "\n",
        );
      }
    }
  }
  const dataDir = path.join(dh.projectRoot, "data");
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(path.join(dataDir, "sales.csv"), "region,units,revenue\nnorth,120,2400\nsouth,80,1750\neast,95,2010\n");
  // Private like every file at the top of the data home: else the next start reports having to tighten it.
  fs.writeFileSync(marker, new Date().toISOString() + "\n", { mode: PRIVATE_FILE_MODE });
  return { seeded: true, count: DEMO_SKILLS.length };
}
