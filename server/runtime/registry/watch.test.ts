// Issue #12 item 2: a link to / in a layer must not make the watcher crawl the machine, and a layer too big
// to watch is rescanned on a timer with a warning. Real folders, real chokidar.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SkillIndex } from "./skill-index";
import { tempLayers, writeSkill, type TempLayers } from "./test-support/registry";
import { countUpTo } from "./watch";
import { SlicedWatch, WATCH_SLICE } from "./watch-slices";

let t: TempLayers;
let index: SkillIndex | null = null;
afterEach(async () => {
  await index?.close();
  index = null;
  t?.cleanup();
});

/** The longest gap between timer ticks while `work` runs: what a health request would have waited. */
async function worstTimerLag(work: () => Promise<void>): Promise<number> {
  let last = Date.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = Date.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 10);
  try {
    await work();
    await new Promise((r) => setTimeout(r, 300));
  } finally {
    clearInterval(timer);
  }
  return worst;
}

const waitFor = async (cond: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe("RegistryWatcher bounds", () => {
  it("a link to / in a layer is not followed: the watch is ready at once and the loop stays responsive", async () => {
    t = tempLayers();
    const root = path.join(t.project, ".omniforge", "skills");
    writeSkill(root, "pdf-tools");
    fs.symlinkSync("/", path.join(root, "rootfs"));
    index = SkillIndex.build(t.config);
    const errors: string[] = [];
    const lag = await worstTimerLag(async () => {
      const t0 = Date.now();
      await index!.watch({ debounceMs: 20, onError: (e) => errors.push(e.message) });
      expect(Date.now() - t0).toBeLessThan(3000);
    });
    expect(lag).toBeLessThan(1000);
    expect(index.watchState()).toEqual({ mode: "notify", tooBig: [] });
    // a new skill still shows up, and the link is listed as refused
    writeSkill(root, "csv-tools");
    await waitFor(() => index!.definitions("csv-tools").length === 1);
    expect(index.get(path.join(root, "rootfs"))?.status).toBe("invalid");
  });

  it("links made inside a skill folder stay that skill's files: no entry of their own (the console's live list)", async () => {
    t = tempLayers();
    const root = path.join(t.project, ".omniforge", "skills");
    const dir = writeSkill(root, "release-notes");
    fs.mkdirSync(path.join(t.base, "secrets"));
    fs.mkdirSync(path.join(t.base, "dir"));
    index = SkillIndex.build(t.config);
    await index.watch({ debounceMs: 20 });
    fs.symlinkSync("/etc/passwd", path.join(dir, "leak.txt"));
    fs.symlinkSync(path.join(t.base, "secrets"), path.join(dir, "secretsdir"));
    fs.symlinkSync(path.join(t.base, "x"), path.join(dir, "tgt.txt"));
    fs.symlinkSync(path.join(t.base, "dir"), path.join(dir, "outd"));
    await new Promise((r) => setTimeout(r, 300));
    writeSkill(root, "csv-tools"); // seen after the links: by then their events were handled
    await waitFor(() => index!.definitions("csv-tools").length === 1);
    expect(index.entries().map((e) => e.name)).toEqual(["csv-tools", "release-notes"]);
  });

  it("a layer over the budget is rescanned on a timer, with a warning that names it", async () => {
    t = tempLayers();
    const root = path.join(t.project, ".omniforge", "skills");
    writeSkill(root, "pdf-tools");
    for (let i = 0; i < 30; i++) fs.mkdirSync(path.join(root, "pdf-tools", `junk-${i}`));
    index = SkillIndex.build(t.config);
    const errors: string[] = [];
    await index.watch({ debounceMs: 20, maxPaths: 10, bigRootPollMs: 200, onError: (e) => errors.push(e.message) });
    expect(index.watchState()?.tooBig).toEqual([root]);
    expect(errors.join("\n")).toMatch(new RegExp(`${root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} holds more than 10 files and folders: too big to watch`));
    writeSkill(root, "csv-tools");
    await waitFor(() => index!.definitions("csv-tools").length === 1);
  });

  it("countUpTo stops at the limit and does not follow links", () => {
    t = tempLayers();
    const root = path.join(t.base, "c");
    for (let i = 0; i < 5; i++) fs.mkdirSync(path.join(root, `d${i}`), { recursive: true });
    fs.symlinkSync("/", path.join(root, "rootfs"));
    expect(countUpTo(root, 1000, 8)).toBe(6);
    expect(countUpTo(root, 3, 8)).toBe(3);
  });
});

describe("the first watch of a big layer (issues 36/38)", () => {
  it("is taken a slice of folders at a time, with turns of the event loop between, and follows every folder after", async () => {
    t = tempLayers();
    const root = path.join(t.project, ".omniforge", "skills");
    for (let i = 0; i < 200; i++) writeSkill(root, `skill-${i}`, { scripts: { "run.sh": "echo hi\n" }, body: "See references/guide.md.\n" });
    for (let i = 0; i < 200; i++) fs.mkdirSync(path.join(root, `skill-${i}`, "references"));
    // A second root, still followed once the first is not.
    const other = path.join(t.home, "skills");
    fs.mkdirSync(other, { recursive: true });
    const seen: string[] = [];
    const watch = new SlicedWatch({ ignoreInitial: true, persistent: false, depth: 8 }, (_event, p) => seen.push(p), (e) => seen.push(`error: ${e.message}`), () => false);
    // The folders watched, counted at every turn of the event loop while the watch starts.
    const counts: number[] = [];
    let started = false;
    const count = () => {
      counts.push(watch.folders());
      if (!started) setImmediate(count);
    };
    setImmediate(count);
    try {
      await watch.start([root, other]);
      started = true;
      expect(watch.folders()).toBeGreaterThanOrEqual(600); // each skill folder, its scripts/ and references/
      const steps = counts.slice(1).map((c, i) => c - counts[i]!);
      // At most one slice of top folders (three folders each, and the root they sit in) came between two turns.
      expect(Math.max(...steps)).toBeLessThanOrEqual(3 * WATCH_SLICE + 1);
      // Every part follows the disk: a file deep in a folder of the last slice, and a folder made after the start.
      fs.writeFileSync(path.join(root, "skill-199", "references", "guide.md"), "# guide\n");
      await waitFor(() => seen.includes(path.join(root, "skill-199", "references", "guide.md")));
      writeSkill(root, "late-one");
      await waitFor(() => seen.includes(path.join(root, "late-one")));
      fs.mkdirSync(path.join(root, "late-one", "references"));
      fs.writeFileSync(path.join(root, "late-one", "references", "notes.md"), "# notes\n");
      await waitFor(() => seen.includes(path.join(root, "late-one", "references", "notes.md")));
      // A root no longer followed says nothing more.
      watch.unwatch(root);
      fs.writeFileSync(path.join(root, "skill-3", "references", "after.md"), "# after\n");
      writeSkill(root, "after-unwatch");
      // Written after them in a root still followed: once it is seen, theirs would have been (no wait on a clock).
      fs.writeFileSync(path.join(other, "marker.md"), "# marker\n");
      await waitFor(() => seen.includes(path.join(other, "marker.md")));
      expect(seen.filter((p) => p.includes("after"))).toEqual([]);
    } finally {
      await watch.close();
    }
    expect(seen.filter((p) => p.startsWith("error"))).toEqual([]);
  }, 60_000);
});

describe("a first watch closed before it is ready", () => {
  it("ends its start instead of waiting for a ready that chokidar, closed, never says", async () => {
    t = tempLayers();
    const root = path.join(t.project, ".omniforge", "skills");
    for (let i = 0; i < 3 * WATCH_SLICE; i++) writeSkill(root, `skill-${i}`);
    const watch = new SlicedWatch({ ignoreInitial: true, persistent: false, depth: 8 }, () => undefined, () => undefined, () => false);
    // As when the index is closed, or the watch switches to polling, while its slices are still being read.
    const started = watch.start([root]);
    await watch.close();
    await started;
    expect(watch.folders()).toBe(0);
  });
});
