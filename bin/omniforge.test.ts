// The bin exits as soon as the command is done and nothing but its output is pending: the output must still arrive
// whole, with the command's exit code, through a pipe whose reader is slower than the writer.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";

const bin = path.join(import.meta.dirname, "omniforge.mjs");
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "of-bin-"));
  // Enough skills for a report of several pipe buffers (64 KiB each on Linux); every other one invalid (exit 1).
  for (let i = 0; i < 400; i++) {
    const name = `skill-${String(i).padStart(3, "0")}`;
    fs.mkdirSync(path.join(dir, name));
    const desc = i % 2 ? "Says hello. Use when greeting." : "";
    fs.writeFileSync(path.join(dir, name, "SKILL.md"), `---\nname: ${name}\ndescription: ${desc}\nx-${"y".repeat(200)}: z\n---\nSee references/missing-${i}.md\n`);
  }
}, 60_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it("writes the whole report and its exit code through a pipe read late", async () => {
  const args = [bin, "skill", "validate", "--json", "--rules", "omniforge", "--recursive", dir];
  const expected = spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  expect(expected.stdout.length).toBeGreaterThan(256 * 1024);
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  child.stdout.pause();
  await new Promise((r) => setTimeout(r, 500)); // the writer fills the pipe and waits on it
  const chunks: Buffer[] = [];
  child.stdout.on("data", (c: Buffer) => chunks.push(c));
  child.stdout.resume();
  const code = await new Promise<number | null>((r) => child.on("close", r));
  expect(code).toBe(1);
  expect(expected.status).toBe(1);
  const got = Buffer.concat(chunks).toString("utf8");
  expect(got.split("\n").length).toBe(401);
  expect(got).toBe(expected.stdout);
}, 60_000);

it("runs by name from any folder through a link on the PATH, as `npm link` or the README's ln -s leave it", () => {
  const pathBin = fs.mkdtempSync(path.join(os.tmpdir(), "of-path-bin-"));
  try {
    fs.symlinkSync(bin, path.join(pathBin, "omniforge"));
    // The shebang's `env node` finds this test's node; the shell's lookup finds the link first.
    const PATH = [pathBin, path.dirname(process.execPath), process.env.PATH].join(path.delimiter);
    const r = spawnSync("omniforge", ["skill", "validate", "--rules", "omniforge", "."], { cwd: dir, encoding: "utf8", env: { ...process.env, PATH }, maxBuffer: 64 * 1024 * 1024 });
    expect(r.error).toBeUndefined();
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("skill-001/SKILL.md: valid (skill-001)");
    expect(r.stdout).toContain("400 skills checked (rules: omniforge): 200 valid, 200 invalid");
    expect(r.status).toBe(1);
  } finally {
    fs.rmSync(pathBin, { recursive: true, force: true });
  }
});
