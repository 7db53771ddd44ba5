// The kept answer of `omniforge skill list --json` (listing-cache.ts): served again only while the folders' entries
// and every other input are the same, and each change of an input gives the listing a cache-less run gives. The
// command runs in this process over real folders with a build name, as bin/omniforge.mjs runs it, because the
// listing keeps no entry saved within 2 s (FILE_CLOCK_SETTLE_MS): the clock is moved on instead of waiting.
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { tempLayers, type TempLayers, writeSkill } from "../../runtime/registry/test-support/registry";
import type { CliIO } from "../io";
import { run } from "./skill-list";

let t: TempLayers;
let cacheDir: string;
let skills: string;

beforeAll(() => {
  t = tempLayers();
  cacheDir = path.join(t.base, "cache");
  skills = path.join(t.project, ".omniforge", "skills");
  for (const name of ["alpha", "beta", "gamma"]) writeSkill(skills, name);
  writeSkill(skills, "prod-only", { extra: "scope:\n  environments: [prod]" });
});
afterAll(() => t.cleanup());
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  fs.rmSync(cacheDir, { recursive: true, force: true });
});
afterEach(() => vi.useRealTimers());

/** One listing; `cache: false` is the reference, made from the files alone. */
async function list(args: string[] = [], cache = true, bytes = false): Promise<string> {
  // Each listing a minute later: every file is past the settling time, as in a listing run again by a person.
  vi.setSystemTime(Date.now() + 60_000);
  let out = "";
  const io: CliIO = {
    out: (s) => void (out += s),
    err: () => {},
    env: { OMNIFORGE_CACHE_DIR: cache ? cacheDir : "off", HOME: t.base },
    cwd: t.base,
    build: "commands-TEST.cjs",
    // As bin/omniforge.mjs gives it: a kept answer goes out as the bytes it was read as.
    ...(bytes ? { outBytes: (b: Uint8Array) => void (out += `<bytes>${Buffer.from(b).toString("utf8")}`) } : {}),
  };
  const format = args.includes("--jsonl") ? [] : ["--json"];
  const code = await run([...format, ...args, "--home", t.home, "--project", t.project], io);
  expect(code).toBe(0);
  return out;
}

const answerFile = () => fs.readdirSync(cacheDir).find((f) => f.endsWith(".answer"));

describe("skill list's kept answer", () => {
  it("is kept on a listing that reused every entry, and served while nothing changed", async () => {
    const reference = await list([], false);
    expect(await list()).toBe(reference); // fills the entries' cache
    expect(answerFile()).toBeUndefined();
    expect(await list()).toBe(reference); // every entry reused: the answer is kept
    const file = path.join(cacheDir, answerFile()!);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // Served, not remade: a marker put in the kept answer (after its header) comes out as it is.
    const kept = fs.readFileSync(file, "utf8");
    const header = kept.slice(0, kept.indexOf("\n") + 1);
    fs.writeFileSync(file, `${header}MARKER\n`);
    expect(await list()).toBe("MARKER\n");
    expect(await list([], true, true)).toBe("<bytes>MARKER\n");
    // A file another user could write is not taken.
    fs.chmodSync(file, 0o622);
    expect(await list()).toBe(reference);
  });

  it("is not served when an input changed: format, context, policy, config.yaml, a file, a folder", async () => {
    const policy = path.join(t.base, "policy.json");
    fs.writeFileSync(policy, JSON.stringify({ blockedNames: [] }));
    const same = async (args: string[] = []) => {
      const reference = await list(args, false);
      // Twice with the cache: the first may remake the entries' cache, the second may take a kept answer.
      expect(await list(args)).toBe(reference);
      expect(await list(args)).toBe(reference);
      return reference;
    };
    const first = await same(["--policy", policy]);
    expect(answerFile()).toBeDefined();

    const jsonl = await same(["--policy", policy, "--jsonl"]);
    expect(jsonl).not.toBe(first);
    const prod = await same(["--policy", policy, "--environment", "prod"]);
    expect(prod).not.toBe(first);

    fs.writeFileSync(policy, JSON.stringify({ blockedNames: ["alpha"] }));
    const blocked = await same(["--policy", policy]);
    expect(blocked).not.toBe(first);
    expect(JSON.parse(blocked).find((r: { name: string }) => r.name === "alpha").status).toBe("blocked");

    fs.mkdirSync(path.join(t.project, ".omniforge"), { recursive: true });
    fs.writeFileSync(path.join(t.project, ".omniforge", "config.yaml"), "disabled_skills: [beta]\n");
    const disabled = await same(["--policy", policy]);
    expect(JSON.parse(disabled).find((r: { name: string }) => r.name === "beta").status).toBe("disabled");
    fs.rmSync(path.join(t.project, ".omniforge", "config.yaml"));

    const file = path.join(skills, "gamma", "SKILL.md");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("Does gamma things.", "Does other things."));
    const edited = await same(["--policy", policy]);
    expect(edited).toContain("Does other things.");

    fs.rmSync(path.join(skills, "gamma"), { recursive: true });
    const removed = await same(["--policy", policy]);
    expect(removed).not.toContain('"gamma"');
  });
});
