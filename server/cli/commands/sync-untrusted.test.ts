// `omniforge sync` against a scripted server on 127.0.0.1 that answers what a console should not (something that
// is not a catalog, text with terminal control characters in it), and with a lock file it cannot trust. Each ends
// in one clear line, never a stack trace or a half-written folder, and nothing the server says reaches the
// terminal raw.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { serveFetch } from "../../test-support/http-server";
import type { CliIO } from "../io";
import { readSkillFolder } from "../../runtime/registry/skill-files";
import { folderDigest } from "../../runtime/sync/digest";
import { main } from "../main";

let server: Awaited<ReturnType<typeof serveFetch>>;
let answer: (req: Request) => Response;
let home: string;
let project: string;

beforeEach(async () => {
  server = await serveFetch(async (req) => answer(req));
  home = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-sync-untrusted-"));
  project = path.join(home, "project");
  fs.mkdirSync(project);
});
afterEach(async () => {
  await server.close();
  fs.rmSync(home, { recursive: true, force: true });
});

const json = (body: unknown, status = 200) => new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const DIGEST = "sha256:" + "0".repeat(64);

async function sync(...extra: string[]) {
  const io = { stdout: "", stderr: "", env: { HOME: home }, cwd: project } as unknown as CliIO & { stdout: string; stderr: string };
  io.out = (s) => void (io.stdout += s);
  io.err = (s) => void (io.stderr += s);
  const code = await main(["sync", "--from", server.url, "--token", "t", "--agent", "claude-code", "--scope", "project", ...extra], io);
  return { code, out: io.stdout, err: io.stderr };
}
/** Anything a terminal acts on, other than the newlines that end our own lines. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const catalog = (skills: { name: string; digest: string }[] = [{ name: "fine", digest: DIGEST }]) => ({ etag: "e1", user: "u@x.io", skills, skipped: [] });

describe("omniforge sync refuses an answer that is not a catalog", () => {
  it.each([
    ["HTML", "<html>hi</html>", "not JSON"],
    ["null", "null", "the answer: expected object, got null"],
    ["a list that is not one", '{"etag":"e","skills":"notalist"}', "user: missing; skills: expected array, got string; skipped: missing"],
    ["a skill without a digest", JSON.stringify(catalog([{ name: "x" } as never])), "skills[0].digest: missing"],
    ["a digest that is not one", JSON.stringify(catalog([{ name: "x", digest: "../../etc" }])), 'skills[0].digest: expected "sha256:" and 64 hex digits'],
    ["an ETag that cannot go back in a header", JSON.stringify({ ...catalog(), etag: 'a"\nb' }), "etag: expected an ETag"],
  ])("%s: one line naming the server, exit 1, nothing written", async (_, body, why) => {
    answer = () => json(body);
    for (const extra of [["--dry-run"], []]) {
      const r = await sync(...extra);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/^omniforge sync: http:\/\/127\.0\.0\.1:\d+ did not answer with a catalog: [^\n]+\n$/);
      expect(r.err).toContain(`${server.url} did not answer with a catalog: ${why}`);
      expect(r.out).toBe("");
      expect(fs.existsSync(path.join(project, ".claude"))).toBe(false);
    }
  });

  it("a skill listed twice stops before anything is written: the catalog is not what the console sends", async () => {
    answer = () => json(catalog([{ name: "eps", digest: DIGEST }, { name: "fine", digest: DIGEST }, { name: "eps", digest: DIGEST }]));
    for (const extra of [["--dry-run"], []]) {
      const r = await sync(...extra);
      expect([r.code, r.out]).toEqual([1, ""]);
      expect(r.err).toBe(`omniforge sync: ${server.url} did not answer with a catalog: skills[2].name: "eps" is listed twice\n`);
      expect(fs.existsSync(path.join(project, ".claude"))).toBe(false);
    }
    // One folder on macOS and Windows.
    answer = () => json(catalog([{ name: "Eps", digest: DIGEST }, { name: "eps", digest: DIGEST }]));
    expect((await sync()).err).toContain('skills[1].name: "eps" is listed twice (as "Eps"; names that differ only in case are one folder on some systems)');
  });

  it("an archive that is not a tar stops before anything is written", async () => {
    answer = (req) => (new URL(req.url).searchParams.get("format") === "tar" ? new Response("<html>hi</html>") : json(catalog()));
    const r = await sync();
    expect(r.code).toBe(1);
    expect(r.err).toBe(`omniforge sync: ${server.url} did not answer with a catalog archive: 15 bytes is too short to be a tar archive\n`);
    expect(fs.existsSync(path.join(project, ".claude"))).toBe(false);
  });

  it("an answer that never ends is cut off at the catalog's limit, not read whole", async () => {
    let sent = 0;
    answer = () =>
      new Response(
        new ReadableStream({
          pull(c) {
            sent += 1024 * 1024;
            c.enqueue(new Uint8Array(1024 * 1024).fill(0x20));
          },
        }),
        // Not application/json: the test server would buffer a JSON answer whole before sending it.
        { headers: { "content-type": "text/plain" } },
      );
    const r = await sync("--dry-run");
    expect(r.code).toBe(1);
    expect(r.err).toBe(`omniforge sync: ${server.url} did not answer with a catalog: the answer is larger than ${32 * 1024 * 1024} bytes\n`);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });

  it("an error body that is not the console's keeps the status only", async () => {
    answer = () => json({ error: { message: { nested: true } } }, 502);
    const r = await sync();
    expect(r.code).toBe(1);
    expect(r.err).toBe("omniforge sync: the console refused: 502 Bad Gateway\n");
  });
});

describe("omniforge sync prints the server's text escaped", () => {
  it("the user, skipped skills, allowed-tools and an unsafe skill name show their control characters as \\uXXXX", async () => {
    answer = () =>
      json({
        etag: "e1",
        user: "eve\u001b[2J",
        skills: [
          { name: "evil\u001b[2J\nforged: line", digest: DIGEST, hasScripts: false },
          { name: "fine", digest: DIGEST, hasScripts: false, allowedTools: ["Read\u202e", "Bash\r"] },
        ],
        skipped: [{ name: "gone\u0085", reason: "too large\nsynced: 9 added" }],
      });
    const r = await sync("--dry-run");
    expect(r.code, r.err).toBe(0);
    expect(r.out).not.toMatch(RAW_CONTROL);
    expect(r.out).toContain("as eve\\u001b[2J (project scope)");
    expect(r.out).toMatch(/! clash\s+evil\\u001b\[2J\\u000aforged: line\s+\(not a usable folder name; skipped\)/);
    expect(r.out).toContain("allowed-tools (Read\\u202e, Bash\\u000d)");
    expect(r.out).toContain("note: gone\\u0085: not offered by the console (too large\\u000asynced: 9 added)");
    expect(r.out.split("\n").filter((l) => /^(forged|synced)/.test(l))).toEqual([]);
  });

  it("the console's error message is one escaped line", async () => {
    answer = () => json({ error: { code: "FORBIDDEN", message: "no\u001b]0;pwned\u0007\nomniforge sync: all good" } }, 403);
    const r = await sync("--dry-run");
    expect(r.code).toBe(1);
    expect(r.err).toBe("omniforge sync: the console refused: 403: no\\u001b]0;pwned\\u0007\\u000aomniforge sync: all good\n");
  });
});

describe("omniforge sync prints no secret", () => {
  const run = async (from: string, token: string) => {
    const io = { stdout: "", stderr: "", env: { HOME: home }, cwd: project } as unknown as CliIO & { stdout: string; stderr: string };
    io.out = (s) => void (io.stdout += s);
    io.err = (s) => void (io.stderr += s);
    const code = await main(["sync", "--from", from, "--token", token, "--agent", "claude-code", "--scope", "project"], io);
    return { code, all: io.stdout + io.stderr };
  };

  it("a password in --from is refused, and shown as ***", async () => {
    answer = () => json(catalog());
    for (const from of [server.url.replace("http://", "http://u:s3cret-pw@"), "ftp://u:s3cret-pw@example.com", "u:s3cret-pw@example.com"]) {
      const r = await run(from, "t");
      expect(r.code).toBe(2);
      expect(r.all).not.toContain("s3cret-pw");
      expect(r.all).toMatch(/^omniforge sync: --from (must not carry a user name or password|must be an http\(s\) address)[^\n]*\*\*\*@/);
    }
    expect(fs.existsSync(path.join(project, ".claude"))).toBe(false);
  });

  it("the token, wherever the console's answer repeats it, is shown as ***", async () => {
    const token = "omf_s3cret-token-123";
    answer = (req) => json({ error: { message: `bad token ${req.headers.get("authorization")}` } }, 401);
    const r = await run(server.url, token);
    expect(r.code).toBe(1);
    expect(r.all).toBe("omniforge sync: the console refused: 401: bad token Bearer ***\n");
  });
});

describe("omniforge sync stops at a lock file it cannot read", () => {
  const skills = () => path.join(project, ".claude", "skills");
  const lockFile = () => path.join(skills(), ".omniforge-sync.json");
  const refused = () => `omniforge sync: ${lockFile()} is not a lock file omniforge sync can read; fix or remove it\n`;
  beforeEach(() => {
    answer = () => json(catalog([{ name: "x", digest: DIGEST }]));
    fs.mkdirSync(skills(), { recursive: true });
  });

  it.each([
    ["an entry that is null", { version: 1, skills: { x: null } }],
    ["an entry without its source", { version: 1, skills: { x: { digest: DIGEST, syncedAt: "2025-01-01T00:00:00Z" } } }],
    ["an entry whose digest is not text", { version: 1, skills: { x: { source: "http://a", digest: 7, syncedAt: "2025-01-01T00:00:00Z" } } }],
  ])("%s", async (_, lock) => {
    fs.writeFileSync(lockFile(), JSON.stringify(lock));
    for (const extra of [["--dry-run"], []]) {
      const r = await sync(...extra);
      expect(r.code).toBe(1);
      expect(r.err).toBe(refused());
    }
    expect(fs.readdirSync(skills())).toEqual([".omniforge-sync.json"]);
  });

  it("skills named like an object's own properties find no lock entry: a hand-made folder is said to be one", async () => {
    answer = () => json(catalog([{ name: "toString", digest: DIGEST }, { name: "constructor", digest: DIGEST }]));
    for (const name of ["toString", "constructor"]) fs.mkdirSync(path.join(skills(), name));
    fs.writeFileSync(lockFile(), JSON.stringify({ version: 1, skills: {} }));
    const r = await sync("--dry-run");
    expect(r.code).toBe(0);
    expect(r.out).not.toContain("undefined");
    expect(r.out.match(/a folder omniforge sync did not write; left alone/g)).toHaveLength(2);
  });

  it("a write the file system refuses ends in one line naming the file, not a stack trace", async () => {
    // A skill synced before from this console, now gone from its catalog: sync removes it, then writes the lock.
    const old = path.join(skills(), "old");
    fs.mkdirSync(old);
    fs.writeFileSync(path.join(old, "SKILL.md"), "---\nname: old\ndescription: Old. Use when testing.\n---\n");
    const digest = folderDigest(readSkillFolder(old));
    fs.writeFileSync(lockFile(), JSON.stringify({ version: 1, skills: { old: { source: server.url, digest, syncedAt: "2025-01-01T00:00:00Z" } } }));
    answer = () => json(catalog([]));
    // The lock is written through a temporary file beside it: a folder in that place makes the write fail.
    const tmp = `${lockFile()}.${process.pid}.tmp`;
    fs.mkdirSync(tmp);
    const r = await sync();
    expect([r.code, r.err]).toEqual([1, `omniforge sync: could not open ${tmp}: EISDIR\n`]);
  });

  it("a folder in its place", async () => {
    fs.mkdirSync(lockFile());
    const r = await sync();
    expect(r.code).toBe(1);
    expect(r.err).toBe(refused());
    expect(fs.readdirSync(skills())).toEqual([".omniforge-sync.json"]);
  });

  it("a link to a file outside the folder", async () => {
    const outside = path.join(home, "elsewhere.json");
    fs.writeFileSync(outside, JSON.stringify({ version: 1, skills: {} }));
    fs.symlinkSync(outside, lockFile());
    const r = await sync();
    expect(r.code).toBe(1);
    expect(r.err).toBe(refused());
    expect(fs.readFileSync(outside, "utf8")).toBe(JSON.stringify({ version: 1, skills: {} }));
  });

  it.skipIf(process.platform === "win32")("a FIFO, without waiting for a writer", async () => {
    execFileSync("mkfifo", [lockFile()]);
    // Were sync to wait on the FIFO, this writer lets it go on after 2 s with an empty lock (and the test fails).
    const writer = spawn(process.execPath, ["-e", `setTimeout(() => require("fs").writeFileSync(${JSON.stringify(lockFile())}, '{"version":1,"skills":{}}'), 2000)`]);
    try {
      const r = await sync("--dry-run");
      expect(r.code).toBe(1);
      expect(r.err).toBe(refused());
    } finally {
      writer.kill();
    }
  });
});

describe("omniforge sync names a skills folder it cannot use", () => {
  const dotClaude = () => path.join(project, ".claude");
  const skills = () => path.join(dotClaude(), "skills");
  beforeEach(() => {
    answer = () => json(catalog());
    fs.mkdirSync(dotClaude());
  });
  const refusedEvenDry = async (line: string) => {
    for (const extra of [["--dry-run"], []]) {
      const r = await sync(...extra);
      expect([r.code, r.err]).toEqual([1, `omniforge sync: ${line}\n`]);
      // No plan of adds into a folder that cannot take them.
      expect(r.out).not.toContain("add");
    }
  };

  it("a link to a folder that does not exist (dotfiles not cloned yet): said so, not mkdir's ENOENT", async () => {
    const target = path.join(home, "dotfiles", "claude-skills");
    fs.symlinkSync(target, skills());
    await refusedEvenDry(`${skills()} is a link to ${target}, which does not exist; create that folder or remove the link`);
    expect(fs.existsSync(target)).toBe(false);
  });

  it("a file in its place, or in place of a folder above it: said so, not mkdir's EEXIST or ENOTDIR", async () => {
    fs.writeFileSync(skills(), "notes");
    await refusedEvenDry(`${skills()} is a file, not a folder; move it away and sync again`);
    fs.rmSync(skills());
    fs.rmdirSync(dotClaude());
    fs.writeFileSync(dotClaude(), "notes");
    await refusedEvenDry(`${dotClaude()} is a file, not a folder; move it away and sync again`);
    expect(fs.readFileSync(dotClaude(), "utf8")).toBe("notes");
  });
});
