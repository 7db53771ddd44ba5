// The listing cache as the CLI uses it: a listing, then the next one over the same folders, real files on disk.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cacheDirFrom, listingCache } from "./listing-cache";
import { FILE_CLOCK_SETTLE_MS } from "../../domain/vocabulary";
import type { EntryOptions } from "./scan";
import { SkillIndex } from "./skill-index";
import { tempLayers, type TempLayers, writeSkill } from "./test-support/registry";

const OPTIONS: EntryOptions = { checks: "frontmatter", scriptDigests: false };
let t: TempLayers;
let cacheDir: string;
let skills: string;

beforeEach(() => {
  t = tempLayers();
  cacheDir = path.join(t.base, "cache");
  skills = path.join(t.home, "enterprise", "skills");
  writeSkill(skills, "alpha", { description: "Reviews pull requests. Use when asked for a review." });
  writeSkill(skills, "beta", { description: "Writes release notes. Use when a release is cut.", scripts: { "run.sh": "echo hi" } });
  writeSkill(skills, "broken", { raw: "---\nname: broken\ndescription: [oops\n---\n" });
});
afterEach(() => t.cleanup());

/** A listing as `omniforge skill list` makes it: read the cache, build, save when anything changed. */
function listing(build = "main-AAAA.mjs", now?: number) {
  const cache = listingCache(cacheDir, build, t.config, OPTIONS);
  const previous = cache.read();
  const index = SkillIndex.build(t.config, { entries: OPTIONS, previous });
  cache.write(index.entries(), now);
  return { index, previous, cache };
}

const later = () => Date.now() + 10 * FILE_CLOCK_SETTLE_MS;
const view = (index: SkillIndex) => index.entries().map((e) => ({ name: e.name, description: e.description, status: e.status, hasScripts: e.hasScripts, diagnostics: e.diagnostics.map((d) => d.code) }));

describe("listing cache", () => {
  it("gives the next listing the same entries without reading unchanged files again", () => {
    const first = listing("main-AAAA.mjs", later());
    expect(first.previous).toBeUndefined();
    const second = listing("main-AAAA.mjs", later());
    expect(second.previous?.size).toBe(3);
    expect(view(second.index)).toEqual(view(first.index));
    // Unchanged folders keep the remembered entry itself: nothing was parsed for them.
    for (const e of second.index.entries()) expect(e).toBe(second.previous!.get(e.id));
    expect(fs.statSync(second.cache.file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(cacheDir).mode & 0o777).toBe(0o700);
  });

  it("sees an edit that puts the file's size and mtime back (ctime moved)", () => {
    const file = path.join(skills, "alpha", "SKILL.md");
    // Whole seconds, so that putting the time back (as tar or rsync -t do) restores it exactly.
    fs.utimesSync(file, 1_700_000_000, 1_700_000_000);
    listing("main-AAAA.mjs", later());
    const before = fs.statSync(file);
    const text = fs.readFileSync(file, "utf8");
    fs.writeFileSync(file, text.replace("Reviews pull requests.", "Reviews merge requests"));
    fs.utimesSync(file, 1_700_000_000, 1_700_000_000);
    expect(fs.statSync(file).size).toBe(before.size);
    expect(fs.statSync(file).mtimeMs).toBe(before.mtimeMs);
    const { index } = listing("main-AAAA.mjs", later());
    expect(index.definitions("alpha")[0]!.description).toBe("Reviews merge requests Use when asked for a review.");
  });

  it("sees added and removed skills and a scripts folder that went away", () => {
    listing("main-AAAA.mjs", later());
    writeSkill(skills, "gamma");
    fs.rmSync(path.join(skills, "broken"), { recursive: true });
    fs.rmSync(path.join(skills, "beta", "scripts"), { recursive: true });
    const { index } = listing("main-AAAA.mjs", later());
    expect(index.names().sort()).toEqual(["alpha", "beta", "gamma"]);
    expect(index.definitions("beta")[0]!.hasScripts).toBe(false);
  });

  it("keeps no entry whose file changed just before the save: the file clock is too coarse to trust it", () => {
    const { index } = listing("main-AAAA.mjs", Date.now());
    expect(index.size).toBe(3);
    expect(listingCache(cacheDir, "main-AAAA.mjs", t.config, OPTIONS).read()?.size).toBe(0);
  });

  it("is not used by another build, other options or other folders, nor when damaged or writable by others", () => {
    const { cache } = listing("main-AAAA.mjs", later());
    const otherBuild = listingCache(cacheDir, "main-BBBB.mjs", t.config, OPTIONS);
    expect(otherBuild.read()).toBeUndefined();
    // The same catalog's file: a new build replaces the old one's entries rather than adding a file.
    expect(otherBuild.file).toBe(cache.file);
    expect(listingCache(cacheDir, "main-AAAA.mjs", t.config, { checks: "frontmatter", scriptDigests: true }).read()).toBeUndefined();
    expect(listingCache(cacheDir, "main-AAAA.mjs", { ...t.config, projectRoot: t.base }, OPTIONS).read()).toBeUndefined();
    expect(cache.read()?.size).toBe(3);
    fs.chmodSync(cache.file, 0o666);
    expect(cache.read()).toBeUndefined();
    fs.writeFileSync(cache.file, "not a cache", { mode: 0o600 });
    fs.chmodSync(cache.file, 0o600);
    expect(cache.read()).toBeUndefined();
    // A damaged cache is replaced by the next listing, which is still complete.
    const { index } = listing("main-AAAA.mjs", later());
    expect(index.size).toBe(3);
    expect(cache.read()?.size).toBe(3);
  });

  it("lives in OMNIFORGE_CACHE_DIR, else the XDG cache folder, else ~/.cache; off turns it off", () => {
    expect(cacheDirFrom({ OMNIFORGE_CACHE_DIR: "/var/tmp/of" })).toBe("/var/tmp/of");
    expect(cacheDirFrom({ OMNIFORGE_CACHE_DIR: "off" })).toBeNull();
    expect(cacheDirFrom({ OMNIFORGE_CACHE_DIR: "0" })).toBeNull();
    expect(cacheDirFrom({ XDG_CACHE_HOME: "/x/cache", HOME: "/home/a" })).toBe("/x/cache/omniforge");
    expect(cacheDirFrom({ XDG_CACHE_HOME: "relative", HOME: "/home/a" })).toBe("/home/a/.cache/omniforge");
    expect(cacheDirFrom({ HOME: "/home/a" })).toBe("/home/a/.cache/omniforge");
  });

  it("a cache folder that cannot be written costs the listing nothing", () => {
    fs.writeFileSync(cacheDir, "a file where the folder should be");
    const { index, cache } = listing("main-AAAA.mjs", later());
    expect(index.size).toBe(3);
    expect(cache.read()).toBeUndefined();
  });
});
