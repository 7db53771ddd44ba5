// The skills list asks for each skill's last change (history.ts's latestChanges) on every page. At 100,000 versions
// the plan must read the history's index alone, on SQLite and PostgreSQL: the statement the service sends is handed
// back to the database's EXPLAIN. Before the index held `id`, PostgreSQL read every row of skill_versions, content
// and all, for each page (130 ms at 100,000 versions of 1.5 KB, 47 ms from the index; issue #38). The plan is
// checked, not a time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbKind, postgresPool } from "../../../db/dialect";
import { skillVersions } from "../../../db/schema";
import { plansOf, readsOnly } from "../../../db/test-support/plans";
import { tempDb, type TempDb } from "../../test-support/temp-db";
import { latestChanges } from "./history";

let t: TempDb;
const SKILLS = 2_000;
const VERSIONS = 100_000;
const LAYERS = ["project", "personal", "plugin", "enterprise"] as const;
// A saved SKILL.md of ordinary size: the table's rows are as large as a console's, so its planner weighs them as such.
const CONTENT = "---\nname: a-skill\ndescription: Does one thing well.\n---\n" + "Step by step, what to do.\n".repeat(56);

beforeAll(async () => {
  t = tempDb();
  const rows = Array.from({ length: VERSIONS }, (_, i) => {
    const s = i % SKILLS;
    const layer = LAYERS[s % LAYERS.length]!;
    return {
      layer,
      ownerId: layer === "personal" ? `user-${s % 9}` : null,
      plugin: layer === "plugin" ? `plugin-${s % 5}` : null,
      skill: `skill-${s}`,
      path: "SKILL.md",
      action: "save",
      content: CONTENT,
      digest: "d",
      authorId: `user-${i % 7}`,
      authorEmail: `user-${i % 7}@x.io`,
      createdAt: Date.UTC(2026, 0, 1) + i * 1000,
    };
  });
  for (let i = 0; i < rows.length; i += 1_000) await t.db.insert(skillVersions).values(rows.slice(i, i + 1_000));
  // As autovacuum leaves a table that has lived a while: statistics, and the visibility map an index-only scan needs.
  if (dbKind(t.db) === "postgres") await postgresPool(t.db)!.query("VACUUM ANALYZE skill_versions");
}, 300_000);
afterAll(() => t.cleanup());

describe("the skills list's last change per skill", () => {
  it("finds every skill's latest version from the history's index alone at 100,000 versions", async () => {
    const latest = await latestChanges(t.db);
    expect(latest.size).toBe(SKILLS);
    // The newest of skill-0's versions is the last of its 50, by user (VERSIONS - SKILLS) % 7.
    expect(latest.get("project|||skill-0")).toMatchObject({ createdAt: Date.UTC(2026, 0, 1) + (VERSIONS - SKILLS) * 1000, authorEmail: `user-${(VERSIONS - SKILLS) % 7}@x.io` });
    const plans = await plansOf(t.db, /skill_versions/, () => latestChanges(t.db));
    expect(plans).toHaveLength(1);
    expect(plans[0]!.plan).toMatch(readsOnly(t.db, "skill_versions_skill_idx"));
    expect(plans[0]!.plan).not.toMatch(/Seq Scan|SCAN skill_versions\b(?! USING)/);
  });
});
