// Test helpers for the skills service: a temp data home with a real SQLite file and actors of each role.
import fs from "node:fs";
import path from "node:path";
import { resolveDataHome } from "../../../config";
import { MemoryAuditSink } from "../../../runtime/audit/events";
import { tempDb } from "../../../test-support/temp-db";
import type { SkillsContext } from "../context";
import type { SkillActor } from "../location";

export function skillsTestHome() {
  process.env.OMNIFORGE_WATCH = "0"; // indexes refresh explicitly in tests; no watcher threads left behind
  const t = tempDb();
  const dataHome = resolveDataHome({ OMNIFORGE_HOME: t.dir } as unknown as NodeJS.ProcessEnv);
  fs.mkdirSync(path.join(dataHome.projectRoot, ".omniforge", "skills"), { recursive: true });
  const audit = new MemoryAuditSink();
  const actor = (role: SkillActor["role"], id = `${role}-1`): SkillActor => ({ id, email: `${id}@x.io`, role });
  const ctx = (a: SkillActor): SkillsContext => ({ db: t.db, dataHome, audit, actor: a, procedure: "test" });
  return { ...t, dataHome, audit, actor, ctx };
}

/** Writes a skill folder directly on disk (as git or another editor would). */
export function writeSkillOnDisk(dir: string, files: Record<string, string | Uint8Array>): void {
  for (const [rel, data] of Object.entries(files)) {
    const abs = path.join(dir, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, data);
  }
}

export const skillMd = (name: string, description = `Does ${name} things. Use when ${name} is needed.`, extra = "") =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n# ${name}\n\nBody of ${name}.\n`;
