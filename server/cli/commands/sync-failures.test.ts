// `omniforge sync` when something goes wrong part-way, against a scripted catalog on 127.0.0.1 that serves real
// skill folders: a link or a file where a skill would go, a skill that cannot be written after another was,
// leftovers of a run that died, three runs at once on one folder, and Ctrl-C while writing. Whatever happens, the
// folder and its lock file agree (every skill folder sync wrote is recorded, nothing recorded is half there) and no
// staging folder stays behind for an agent to read as a second copy.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { serveFetch } from "../../test-support/http-server";
import type { CliIO } from "../io";
import { readSkillFolder } from "../../runtime/registry/skill-files";
import { folderDigest } from "../../runtime/sync/digest";
import { tarBlocks } from "../../runtime/sync/tar-write";
import { main } from "../main";

const repo = path.resolve(__dirname, "../../..");
let server: Awaited<ReturnType<typeof serveFetch>>;
let answer: (req: Request) => Response | Promise<Response>;
let home: string;

beforeEach(async () => {
  server = await serveFetch(async (req) => answer(req));
  home = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-sync-failures-"));
});
afterEach(async () => {
  await server.close();
  fs.rmSync(home, { recursive: true, force: true });
});

const enc = new TextEncoder();
type Files = Record<string, string>;
const skillMd = (name: string) => `---\nname: ${name}\ndescription: ${name}. Use when testing.\n---\nDo ${name}.\n`;

/** A catalog serving these skills (listing and tar), the way the console's route does. */
function offer(skills: [string, Files][], opts: { holdTar?: Promise<void> } = {}): void {
  const listing = skills.map(([name, files]) => ({ name, digest: folderDigest(Object.entries(files).map(([p, d]) => ({ path: p, data: enc.encode(d), executable: false }))) }));
  const tar = Buffer.concat([...tarBlocks(skills.flatMap(([name, files]) => Object.entries(files).map(([p, d]) => ({ path: `${name}/${p}`, data: enc.encode(d), mode: 0o644 }))))]);
  answer = async (req) => {
    if (new URL(req.url).pathname === "/api/catalog/deployments") return new Response("{}");
    if (new URL(req.url).searchParams.get("format") !== "tar") return Response.json({ etag: "e1", user: "u@x.io", skills: listing, skipped: [] });
    await opts.holdTar;
    return new Response(tar);
  };
}
const plain = (...names: string[]): [string, Files][] => names.map((n) => [n, { "SKILL.md": skillMd(n) }]);

const skills = (...p: string[]) => path.join(home, ".claude", "skills", ...p);
const args = () => ["sync", "--from", server.url, "--token", "t", "--agent", "claude-code", "--scope", "user"];

async function sync(...extra: string[]) {
  const io = { stdout: "", stderr: "", env: { HOME: home }, cwd: home } as unknown as CliIO & { stdout: string; stderr: string };
  io.out = (s) => void (io.stdout += s);
  io.err = (s) => void (io.stderr += s);
  const code = await main([...args(), ...extra], io);
  return { code, out: io.stdout, err: io.stderr };
}

/** The real CLI in its own process (its own pid), without blocking this one's event loop: the catalog runs here. */
function spawnCli(): { done: Promise<{ code: number | null; err: string }>; pid: number; kill: (s: NodeJS.Signals) => void } {
  const child = spawn(process.execPath, [path.join(repo, "bin/omniforge.mjs"), ...args()], {
    cwd: home,
    env: { ...process.env, HOME: home, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "" },
  });
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  child.stdout.resume();
  const done = new Promise<{ code: number | null; err: string }>((ok) => child.on("close", (code) => ok({ code, err })));
  return { done, pid: child.pid!, kill: (s) => child.kill(s) };
}

/** The folder and its lock agree: every recorded skill is there whole (its digest), every skill folder is recorded. */
function expectConsistent(): string[] {
  const lock = JSON.parse(fs.readFileSync(skills(".omniforge-sync.json"), "utf8")) as { skills: Record<string, { digest: string }> };
  const entries = fs.readdirSync(skills());
  expect(entries.filter((n) => n.startsWith(".") && n !== ".omniforge-sync.json")).toEqual([]);
  const folders = entries.filter((n) => !n.startsWith(".")).sort();
  expect(Object.keys(lock.skills).sort()).toEqual(folders);
  for (const n of folders) expect(folderDigest(readSkillFolder(skills(n))), n).toBe(lock.skills[n]!.digest);
  return folders;
}

/** A pid no process has: one that just ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await new Promise((ok) => child.on("close", ok));
  return child.pid!;
}

describe("omniforge sync leaves what it does not own alone", () => {
  it("a dangling link where a skill would go is a clash, not an add: the others are written and recorded", async () => {
    offer(plain("kappa", "zeta"));
    fs.mkdirSync(skills(), { recursive: true });
    fs.symlinkSync("/nonexistent", skills("zeta"));
    const r = await sync();
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/\+ add\s+kappa/);
    expect(r.out).toMatch(/! clash\s+zeta\s+\(a link or a file, not a folder omniforge sync wrote; left alone\)/);
    expect(fs.readlinkSync(skills("zeta"))).toBe("/nonexistent");
    fs.unlinkSync(skills("zeta"));
    const again = await sync();
    expect(again.out).toMatch(/= keep\s+kappa/);
    expect(again.out).toMatch(/\+ add\s+zeta/);
    expect(expectConsistent()).toEqual(["kappa", "zeta"]);
  });

  it("a file where a skill would go, and a link to a real folder in place of a synced one, are clashes", async () => {
    offer(plain("kappa", "zeta"));
    await sync();
    fs.mkdirSync(path.join(home, "mine"));
    fs.rmSync(skills("kappa"), { recursive: true });
    fs.symlinkSync(path.join(home, "mine"), skills("kappa"));
    fs.rmSync(skills("zeta"), { recursive: true });
    fs.writeFileSync(skills("zeta"), "a file\n");
    const r = await sync();
    expect(r.code, r.err).toBe(0);
    expect(r.out.match(/! clash\s+(kappa|zeta)\s+\(a link or a file/g)).toHaveLength(2);
    expect(fs.readFileSync(skills("zeta"), "utf8")).toBe("a file\n");
    expect(fs.readdirSync(path.join(home, "mine"))).toEqual([]);
  });
});

describe("omniforge sync stopped part-way keeps its lock file true", () => {
  it("a skill that cannot be written after another was: the first is recorded, no staging folder stays", async () => {
    // zeta holds a file "a" and a file under "a/": the second cannot be written (a file is in the way).
    offer([...plain("kappa"), ["zeta", { "SKILL.md": skillMd("zeta"), a: "x", "a/b": "y" }]]);
    const r = await sync();
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^omniforge sync: could not \w+ \S+: E[A-Z]+\n$/);
    expect(expectConsistent()).toEqual(["kappa"]);
    // The next sync owns kappa (not a clash) and adds zeta once the catalog serves a writable copy.
    offer(plain("kappa", "zeta"));
    const again = await sync();
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(/= keep\s+kappa/);
    expect(expectConsistent()).toEqual(["kappa", "zeta"]);
  });

  it("staging folders and a lock left by a run that died are cleaned up; a live run's are not touched", async () => {
    offer(plain("kappa"));
    fs.mkdirSync(skills(), { recursive: true });
    const dead = await deadPid();
    fs.mkdirSync(skills(`.staging-kappa-${dead}`));
    fs.writeFileSync(skills(`.staging-kappa-${dead}`, "SKILL.md"), skillMd("kappa"));
    fs.mkdirSync(skills(`.trash-old-${dead}`));
    fs.writeFileSync(skills(`.omniforge-sync.json.${dead}.tmp`), "{");
    fs.writeFileSync(skills(".omniforge-sync.lock"), JSON.stringify({ pid: dead, host: os.hostname(), startedAt: new Date().toISOString() }));
    const live = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
    try {
      fs.mkdirSync(skills(`.staging-kappa-${live.pid}`));
      const r = await sync();
      expect(r.code, r.err).toBe(0);
      expect(fs.readdirSync(skills()).filter((n) => n.startsWith(".")).sort()).toEqual([".omniforge-sync.json", `.staging-kappa-${live.pid}`]);
      fs.rmdirSync(skills(`.staging-kappa-${live.pid}`));
      expect(expectConsistent()).toEqual(["kappa"]);
    } finally {
      live.kill();
    }
  });

  it("a run holding the folder's lock stops another with one line naming its pid", async () => {
    offer(plain("kappa"));
    fs.mkdirSync(skills(), { recursive: true });
    const live = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
    try {
      fs.writeFileSync(skills(".omniforge-sync.lock"), JSON.stringify({ pid: live.pid, host: os.hostname(), startedAt: new Date().toISOString() }));
      const r = await sync();
      expect([r.code, r.err]).toEqual([1, `omniforge sync: another omniforge sync is running on ${skills()} (pid ${live.pid}); let it finish, or remove ${skills(".omniforge-sync.lock")} if it is not running\n`]);
      expect(fs.readdirSync(skills())).toEqual([".omniforge-sync.lock"]);
    } finally {
      live.kill();
    }
  });

  it("three runs at once on one folder: one writes, the others stop with one line or find it done; nothing is left half done", async () => {
    let release!: () => void;
    const holdTar = new Promise<void>((ok) => (release = ok));
    let tarAsks = 0;
    offer(plain(...Array.from({ length: 30 }, (_, i) => `c${i}`)), { holdTar });
    const inner = answer;
    // All three have planned and asked for the archive before any gets it: they reach the folder together.
    answer = (req) => {
      if (new URL(req.url).searchParams.get("format") === "tar" && ++tarAsks === 3) release();
      return inner(req);
    };
    const runs = await Promise.all([spawnCli(), spawnCli(), spawnCli()].map((r) => r.done));
    for (const r of runs) {
      if (r.code !== 0) expect(r.err).toMatch(/^omniforge sync: another omniforge sync is running on \S+ \(pid \d+\); let it finish, or remove \S+ if it is not running\n$/);
      else expect(r.err).not.toMatch(/could not/);
    }
    expect(runs.some((r) => r.code === 0)).toBe(true);
    expect(expectConsistent()).toHaveLength(30);
    expect(fs.existsSync(skills(".omniforge-sync.lock"))).toBe(false);
    const again = await sync();
    expect(again.out).toContain("synced: 0 added, 0 updated, 0 removed\n");
  }, 60_000);

  it.skipIf(process.platform === "win32")("Ctrl-C while writing finishes the skill in hand, records it, and exits 130", async () => {
    // Enough to write that the interrupt lands part-way: 200 skills of 40 files.
    const many: [string, Files][] = Array.from({ length: 200 }, (_, i) => [`s${i}`, Object.fromEntries([["SKILL.md", skillMd(`s${i}`)], ...Array.from({ length: 40 }, (_, j) => [`references/r${j}.md`, `ref ${j}\n`.repeat(50)])])]);
    offer(many);
    const run = spawnCli();
    const lock = skills(".omniforge-sync.json");
    // Ctrl-C as soon as the first skill is recorded (or never, should the run end without recording one).
    let ended = false;
    void run.done.then(() => (ended = true));
    await new Promise<void>((ok) => {
      const t = setInterval(() => {
        if (ended || fs.existsSync(lock)) {
          clearInterval(t);
          run.kill("SIGINT");
          ok();
        }
      }, 1);
    });
    const r = await run.done;
    expect(r.code, r.err).toBe(130);
    expect(r.err).toMatch(/omniforge sync: interrupted: \S+ holds the \d+ skills? written so far, recorded in its lock file; run sync again to finish\n$/);
    const written = expectConsistent();
    expect(written.length).toBeGreaterThan(0);
    expect(written.length).toBeLessThan(200);
    expect(fs.existsSync(skills(".omniforge-sync.lock"))).toBe(false);
    const again = await sync();
    expect(again.code, again.err).toBe(0);
    expect(expectConsistent()).toHaveLength(200);
  }, 60_000);
});
