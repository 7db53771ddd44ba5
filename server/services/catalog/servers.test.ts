// Two console servers on one data home on shared storage (issue #38). Each server has its own indexes; a skill
// saved through server A raises no file notification on server B (another machine), so B serves it after its next
// rescan (the OMNIFORGE_INDEX_POLL_SECONDS timer, driven here by hand). Server B is the same data home reached by
// another path (a link), so this process keeps its indexes apart from A's, as another process would.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveDataHome } from "../../config";
import { secondConnection } from "../../test-support/temp-db";
import { useSkillsTestHome } from "../../test-support/test-home";
import { catalogWithFiles } from "../catalog-api/catalog-api";
import { createSkill } from "../skills/lifecycle";
import { skillMd, writeSkillOnDisk } from "../skills/test-support/skills";
import { indexFor, indexFreshness, pollIndexes } from "./catalog";

const h = useSkillsTestHome();
const machine = { tokenId: "t", tokenName: "sync", userId: null, email: null, role: "viewer" as const, scopes: ["catalog:read" as const] };
let linkDir: string | null = null;

afterEach(() => {
  if (linkDir) fs.rmSync(linkDir, { recursive: true, force: true });
  linkDir = null;
});

/** Server B: its own connection to the database, the same data home through another path. */
function serverB() {
  linkDir = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-server-b-"));
  const home = path.join(linkDir, "shared-home");
  fs.symlinkSync(h.dataHome.home, home);
  return { ...secondConnection(h), dataHome: resolveDataHome({ OMNIFORGE_HOME: home }) };
}

describe("two servers on one shared data home", () => {
  it("a skill saved on A is served by B after B's rescan, with the same catalog ETag and the same index digest in health", async () => {
    writeSkillOnDisk(path.join(h.dataHome.projectRoot, ".omniforge", "skills", "alpha"), { "SKILL.md": skillMd("alpha", "Alpha things. Use when asked for alpha.") });
    const b = serverB();
    try {
      const onA = async () => (await catalogWithFiles(h.db, h.dataHome, machine, {})).catalog;
      const onB = async () => (await catalogWithFiles(b.db, b.dataHome, machine, {})).catalog;
      const [a1, b1] = [await onA(), await onB()];
      // The same skills give the same ETag on both: it is made of content digests, not of a server's counter.
      expect(b1.skills.map((s) => s.name)).toEqual(["alpha"]);
      expect(b1.etag).toBe(a1.etag);
      expect(indexFreshness(b.dataHome).digest).toBe(indexFreshness(h.dataHome).digest);

      // B also serves a console user (their own index, with their personal layer), used before the catalog's.
      const authorIndexOnB = await indexFor("author-1", b.dataHome);
      await onB();

      await createSkill(h.ctx(h.actor("author")), { layer: "project", name: "beta", description: "Beta things. Use when asked for beta.", template: "basic" });
      await createSkill(h.ctx(h.actor("author")), { layer: "personal", name: "gamma", description: "Gamma things. Use when asked for gamma.", template: "basic" });
      const a2 = await onA();
      expect(a2.skills.map((s) => s.name)).toEqual(["alpha", "beta"]);
      expect(a2.etag).not.toBe(a1.etag);
      // B has not looked yet: it still serves what it had, and its health shows a digest other than A's.
      expect((await onB()).etag).toBe(b1.etag);
      expect(indexFreshness(b.dataHome).digest).not.toBe(indexFreshness(h.dataHome).digest);
      const before = indexFreshness(b.dataHome).scannedAt!;

      expect(authorIndexOnB.names()).toEqual(["alpha"]);
      const changed = await pollIndexes(b.dataHome);
      expect(changed.map((d) => path.basename(d)).sort()).toEqual(["beta", "gamma"]);
      // The user's index took in the shared layers' change and its own personal layer's.
      expect(authorIndexOnB.names()).toEqual(["alpha", "beta", "gamma"]);
      const b2 = await onB();
      expect(b2.skills.map((s) => s.name)).toEqual(["alpha", "beta"]);
      expect(b2.etag).toBe(a2.etag);
      const fresh = indexFreshness(b.dataHome);
      expect(fresh.digest).toBe(indexFreshness(h.dataHome).digest);
      expect(fresh.scannedAt! >= before).toBe(true);
      expect(fresh.changedAt).not.toBeNull();
      // A rescan that finds nothing new changes nothing.
      expect(await pollIndexes(b.dataHome)).toEqual([]);
    } finally {
      await b.close();
    }
  });
});
