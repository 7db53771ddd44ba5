// Test support for the sandbox tests (not used by production code): a skill folder with a script per
// interpreter, a scratch folder, and one real sandbox over them for the whole test file.
// `root`, `skill`, `scratch` and `sandbox` are live bindings: the hooks of useSandboxFolder() set them, and the
// tests of the file that calls it read them as they run.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createSandbox, type Sandbox } from "../index";

export const UID = 65533;

export const SECRET = `SECRET-test-${process.pid}`;
export let root: string;
export let skill: string;
export let scratch: string;
export let sandbox: Sandbox;

export function write(rel: string, text: string, mode = 0o644) {
  const file = path.join(skill, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, { mode });
}

export function sandboxProcesses(): string[] {
  const found: string[] = [];
  for (const pid of fs.readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
      const uid = status.match(/^Uid:\s+(\d+)/m)?.[1];
      const state = status.match(/^State:\s+(\S)/m)?.[1];
      if (uid === String(UID) && state !== "Z") found.push(`${pid} ${status.match(/^Name:\s+(.*)$/m)?.[1]}`);
    } catch {
      /* exited meanwhile */
    }
  }
  return found;
}

/** Makes the folders and the sandbox before the file's tests and removes them after; call inside its describe. */
export function useSandboxFolder(): void {
  beforeAll(async () => {
    process.env.OMNIFORGE_TEST_SERVER_SECRET = SECRET;
    root = fs.mkdtempSync(path.join(os.tmpdir(), "sbx-test-"));
    fs.chmodSync(root, 0o755); // mkdtemp makes 0700; the sandbox uid must reach the skill folder
    skill = path.join(root, "skill");
    scratch = path.join(root, "scratch");
    write("scripts/hello.py", "import sys\nprint('py', sys.argv[1:])\nsys.exit(3)\n");
    write("scripts/hello.sh", 'echo "sh $# $1|$2"\nexit 4\n');
    write("scripts/hello.js", "console.log('js', process.argv.slice(2).join(','));\nprocess.exit(5);\n");
    write("scripts/tool", "#!/usr/bin/env python3\nprint('shebang ok')\n");
    write("references/data.txt", "resource-text\n");
    fs.mkdirSync(scratch, { mode: 0o700 });
    sandbox = createSandbox({ maxConcurrent: 2 });
    await sandbox.status();
  });

  afterAll(async () => {
    delete process.env.OMNIFORGE_TEST_SERVER_SECRET;
    await sandbox?.close();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });
}

/** Runs a script of the skill folder in the file's sandbox. */
export const run = (script: string, extra: Record<string, unknown> = {}) =>
  sandbox.run({ skillDir: skill, scratchDir: scratch, script, ...extra });
/** Runs a bash command line in the file's sandbox. */
export const cmd = (command: string, extra: Record<string, unknown> = {}) =>
  sandbox.run({ skillDir: skill, scratchDir: scratch, command, ...extra });
