// The load bench's throw-away data home: the real skills of the shared fixtures copied under several names into
// the enterprise layer until the catalog holds the wanted count, and the people who sign in.
import fs from "node:fs";
import path from "node:path";
import { closeDb, openDb, postgresDb, type Db } from "../../../db/client";
import { postgresPool } from "../../../db/dialect";
import { migratePostgres, type PgDb } from "../../../db/postgres/client";
import { createUser } from "../../../server/services/users/users";

const repo = path.resolve(import.meta.dirname, "..", "..", "..");
/** The real skills of the shared fixtures (OMNIFORGE_SHARED_DIR, default ../shared beside the clone). */
export const REAL_SKILLS = path.join(process.env.OMNIFORGE_SHARED_DIR ?? path.resolve(repo, "../shared"), "fixtures", "real-skills");

/** Every skill folder (one holding a SKILL.md) under the real-skills fixtures. */
export function fixtureSkillDirs(root = REAL_SKILLS): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (depth > 4) return;
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!d.isDirectory() || d.name.startsWith(".")) continue;
      const p = path.join(dir, d.name);
      if (fs.existsSync(path.join(p, "SKILL.md"))) out.push(p);
      else walk(p, depth + 1);
    }
  };
  walk(root, 0);
  if (!out.length) throw new Error(`load bench: no skills under ${root} (set OMNIFORGE_SHARED_DIR)`);
  return out.sort();
}

/** Copies the skills round-robin under `<folder>-<k>` names (frontmatter name rewritten to match); returns how many. */
export function seedSkills(home: string, dirs: string[], count: number): number {
  const root = path.join(home, "enterprise", "skills");
  fs.mkdirSync(root, { recursive: true });
  for (let i = 0; i < count; i++) {
    const src = dirs[i % dirs.length]!;
    const name = `${path.basename(src).toLowerCase().replace(/[^a-z0-9-]/g, "-").slice(0, 56)}-${Math.floor(i / dirs.length) + 1}`;
    const dest = path.join(root, name);
    fs.cpSync(src, dest, { recursive: true });
    const file = path.join(dest, "SKILL.md");
    const text = fs.readFileSync(file, "utf8");
    fs.writeFileSync(file, text.replace(/^name:.*$/m, `name: ${name}`));
  }
  return count;
}

export interface SeedUser {
  email: string;
  password: string;
}

/**
 * The first is an admin, the others authors (the playground and the audit page need at least that). Into the data
 * home's console.db, or the PostgreSQL database `databaseUrl` names (migrated first, as a console would).
 */
export async function seedUsers(home: string, n: number, databaseUrl?: string): Promise<SeedUser[]> {
  const file = path.join(home, "console.db");
  const db: Db = databaseUrl ? postgresDb(databaseUrl, home) : openDb(file);
  if (databaseUrl) await migratePostgres(db as unknown as PgDb);
  const out: SeedUser[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const u = { email: `load-${i}@bench.test`, password: `load-bench-password-${i}` };
      await createUser(db, { ...u, role: i === 0 ? "admin" : "author" });
      out.push(u);
    }
  } finally {
    if (databaseUrl) await postgresPool(db)!.end();
    else closeDb(file);
  }
  return out;
}
