import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { skillMd, writeSkillOnDisk } from "../skills/test-support/skills";
import { serveFetch } from "../../test-support/http-server";
import { useSkillsTestHome } from "../../test-support/test-home";
import { healthReport, type HealthReport } from "../health";
import { indexFor, onRefreshAll, refreshAll, watchSummary } from "./catalog";

const h = useSkillsTestHome();
beforeEach(() => {
  process.env.OMNIFORGE_WATCH = "1";
});
afterEach(() => {
  process.env.OMNIFORGE_WATCH = "0";
});

async function until(check: () => boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("catalog watcher", () => {
  it("one watcher follows the shared layers for every user, and each user's own layer", async () => {
    const alice = await indexFor("alice", h.dataHome);
    const bob = await indexFor("bob", h.dataHome);
    const told: string[][] = [];
    const stop = onRefreshAll((paths) => told.push(paths));
    try {
      writeSkillOnDisk(path.join(h.dataHome.home, "enterprise/skills/shared-one"), { "SKILL.md": skillMd("shared-one") });
      await until(() => [alice, bob].every((i) => i.entries().some((e) => e.name === "shared-one")));
      // Bob's personal layer, created after his index was: followed too, and only his index has it.
      fs.mkdirSync(path.join(h.dataHome.home, "users/bob/skills"), { recursive: true });
      writeSkillOnDisk(path.join(h.dataHome.home, "users/bob/skills/mine"), { "SKILL.md": skillMd("mine") });
      await until(() => bob.entries().some((e) => e.name === "mine"));
      expect(alice.entries().some((e) => e.name === "mine")).toBe(false);
      // The playground's worker hears of every change the watcher saw.
      expect(told.flat().some((p) => p.startsWith(path.join(h.dataHome.home, "enterprise")))).toBe(true);
      expect(watchSummary()).toMatchObject({ indexes: 2, polling: 0 });
    } finally {
      stop();
    }
  });
});

describe("a single-user install's agent folders (OMNIFORGE_PERSONAL_AGENT_FOLDERS)", () => {
  it("off by default; on, each user's personal layer also reads the agents' folders of the console's HOME", async () => {
    const { SkillIndex, resolveAll } = await import("../../runtime/registry");
    const { layerConfigFor } = await import("./catalog");
    const userHome = path.join(h.dataHome.home, "..", "person");
    writeSkillOnDisk(path.join(userHome, ".claude", "skills", "my-notes"), { "SKILL.md": skillMd("my-notes") });
    writeSkillOnDisk(path.join(userHome, ".gemini", "skills", "gem-helper"), { "SKILL.md": skillMd("gem-helper") });
    const personal = (env: Record<string, string>) =>
      resolveAll(SkillIndex.build(layerConfigFor("alice", h.dataHome, env)), {})
        .skills.filter((e) => e.layer === "personal")
        .map((e) => e.name)
        .sort();
    expect(personal({ HOME: userHome })).toEqual([]);
    expect(personal({ HOME: userHome, OMNIFORGE_PERSONAL_AGENT_FOLDERS: "1" })).toEqual(["gem-helper", "my-notes"]);
    // The what-if "nobody" has no personal layer at all.
    expect(layerConfigFor(null, h.dataHome, { HOME: userHome, OMNIFORGE_PERSONAL_AGENT_FOLDERS: "1" }).agentUserDirs).toBeUndefined();
    fs.rmSync(userHome, { recursive: true, force: true });
  });
});

describe("the first catalog read after start", () => {
  it("leaves /api/health answering while it reads 600 skills, and serves what the console wrote meanwhile", async () => {
    const dirs = Array.from({ length: 600 }, (_, i) => path.join(h.dataHome.home, "enterprise/skills", `skill-${i}`));
    for (const [i, dir] of dirs.entries()) writeSkillOnDisk(dir, { "SKILL.md": skillMd(`skill-${i}`) });
    const server = await serveFetch(async () => Response.json(await healthReport(h.db)));
    try {
      // A probe's first request before the read: its connection is open, as a load balancer's would be.
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      let read = false;
      let rewritten = false;
      const first = indexFor("alice", h.dataHome).finally(() => (read = true));
      // A turn into the read, every skill saved again (as the editor's save does: the file, then refreshAll), so
      // the ones the read has checked already are stale unless it looks at them again.
      setImmediate(() => {
        for (const [i, dir] of dirs.entries()) writeSkillOnDisk(dir, { "SKILL.md": skillMd(`skill-${i}`, `Saved again, skill ${i}. Use when testing.`) });
        refreshAll(dirs);
        rewritten = true;
      });
      const answers: HealthReport[] = [];
      while (!read) answers.push((await (await fetch(`${server.url}/api/health`)).json()) as HealthReport);
      const index = await first;
      expect(rewritten).toBe(true);
      // Answered while no index was there yet: the read left the thread to the health requests.
      expect(answers.filter((a) => a.status === "ok" && a.watcher.indexes === 0).length).toBeGreaterThan(0);
      expect(index.size).toBe(600);
      expect(index.entries().filter((e) => e.description.startsWith("Saved again")).length).toBe(600);
    } finally {
      await server.close();
    }
  });
});

describe("health's index digest", () => {
  it("is computed once per index version over many probes, and a saved skill gives a new one at the next probe", async () => {
    process.env.OMNIFORGE_WATCH = "0"; // nothing but this test's own save moves the index
    const dirs = Array.from({ length: 50 }, (_, i) => path.join(h.dataHome.home, "enterprise/skills", `skill-${i}`));
    for (const [i, dir] of dirs.entries()) writeSkillOnDisk(dir, { "SKILL.md": skillMd(`skill-${i}`) });
    const index = await indexFor("alice", h.dataHome);
    const server = await serveFetch(async () => Response.json(await healthReport(h.db, h.dataHome)));
    const probe = async () => ((await (await fetch(`${server.url}/api/health`)).json()) as HealthReport).index.digest;
    // The digest reads every definition of the index: its reads count the computations (the index itself is real).
    const reads = vi.spyOn(index, "entries");
    try {
      const digests: (string | null)[] = [];
      for (let i = 0; i < 20; i++) digests.push(await probe());
      expect(new Set(digests).size).toBe(1);
      expect(digests[0]).toMatch(/^[0-9a-f]{16}$/);
      expect(reads).toHaveBeenCalledTimes(1);

      writeSkillOnDisk(dirs[7]!, { "SKILL.md": skillMd("skill-7", "Saved again. Use when testing the digest.") });
      refreshAll([path.join(dirs[7]!, "SKILL.md")]); // what the editor's save does after writing
      const after = await probe();
      expect(after).not.toBe(digests[0]);
      expect(await probe()).toBe(after);
      expect(reads).toHaveBeenCalledTimes(2);
    } finally {
      reads.mockRestore();
      await server.close();
    }
  });
});
