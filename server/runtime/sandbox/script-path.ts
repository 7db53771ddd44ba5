// Resolves a script path under its skill folder and picks the interpreter. Everything here runs
// before any process starts, so a refused path never reaches the sandbox.
import fs from "node:fs";
import path from "node:path";
import { isScriptFolder } from "../../domain/skill-protocol";

/** A request the sandbox will not run; the message is for a person. */
export class SandboxRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SandboxRefusal";
  }
}

export interface ResolvedScript {
  /** realpath of the skill folder. */
  skillDir: string;
  /** realpath of the script, inside skillDir. */
  file: string;
  /** Path relative to skillDir with "/" separators (no symlinks, no ".."). */
  relative: string;
}

/** Absolute interpreters only: root's PATH may hold shims the sandbox cannot see (SANDBOX.md §1). */
export const INTERPRETERS: Record<string, string> = {
  ".py": "/usr/bin/python3",
  ".sh": "/usr/bin/bash",
  ".bash": "/usr/bin/bash",
  ".js": "/usr/bin/node",
  ".mjs": "/usr/bin/node",
  ".cjs": "/usr/bin/node",
};

export function realSkillDir(skillDir: string): string {
  if (typeof skillDir !== "string" || !path.isAbsolute(skillDir)) {
    throw new SandboxRefusal(`The skill folder must be an absolute path, got "${String(skillDir)}"`);
  }
  let real: string;
  try {
    real = fs.realpathSync(skillDir);
  } catch {
    throw new SandboxRefusal(`The skill folder ${skillDir} does not exist`);
  }
  if (!fs.statSync(real).isDirectory()) throw new SandboxRefusal(`The skill folder ${skillDir} is not a directory`);
  if (real === "/") throw new SandboxRefusal("The skill folder cannot be /");
  return real;
}

export function resolveScript(skillDir: string, script: string): ResolvedScript {
  if (typeof script !== "string" || script.trim() === "") throw new SandboxRefusal("No script path was given");
  if (script.includes("\0")) throw new SandboxRefusal("The script path contains a NUL byte");
  if (path.isAbsolute(script) || /^[a-zA-Z]:[\\/]/.test(script) || script.startsWith("\\")) {
    throw new SandboxRefusal(`Script paths are relative to the skill folder; "${script}" is absolute`);
  }
  const parts = script.split(/[\\/]+/);
  if (parts.includes("..")) throw new SandboxRefusal(`The script path "${script}" leaves the skill folder ("..")`);
  const root = realSkillDir(skillDir);
  const joined = path.join(root, ...parts.filter((p) => p !== "" && p !== "."));
  let file: string;
  try {
    file = fs.realpathSync(joined);
  } catch {
    throw new SandboxRefusal(`Script not found: ${script} (looked in ${root})`);
  }
  if (!file.startsWith(root + path.sep)) {
    throw new SandboxRefusal(`The script "${script}" is a symlink that leaves the skill folder; refused`);
  }
  if (!fs.statSync(file).isFile()) throw new SandboxRefusal(`The script "${script}" is not a regular file`);
  return { skillDir: root, file, relative: path.relative(root, file).split(path.sep).join("/") };
}

/**
 * The argv prefix that runs a script: by extension, else by its shebang (run explicitly, so the
 * execute bit does not matter), else the file itself when it is executable.
 */
export function interpreterFor(file: string, displayPath: string): string[] {
  const ext = path.extname(file).toLowerCase();
  const known = INTERPRETERS[ext];
  if (known) return [known];
  const head = readHead(file);
  if (head.startsWith("#!")) {
    const line = head.slice(2).split("\n")[0]!.trim();
    const [interp, ...rest] = line.split(/\s+/);
    if (!interp || !(interp.startsWith("/usr/") || interp.startsWith("/bin/")) || interp.includes("..")) {
      throw new SandboxRefusal(
        `The script ${displayPath} asks for the interpreter "${interp ?? ""}", which does not exist in the sandbox (only /usr and /bin are available)`,
      );
    }
    // Linux passes everything after the interpreter as one argument.
    return rest.length > 0 ? [interp, rest.join(" ")] : [interp];
  }
  const mode = fs.statSync(file).mode;
  if ((mode & 0o111) !== 0) return [];
  throw new SandboxRefusal(
    `Cannot tell how to run ${displayPath}: use .py, .sh, .js or .mjs, add a #! line, or make it executable`,
  );
}

function readHead(file: string): string {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  try {
    const buf = Buffer.alloc(256);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString("utf8");
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The folders a command run must not see: every top-level script folder of the skill (scripts, bin, tools, any
 * case, as the read tools count them), and the folder such a symlink points to when that stays inside the skill.
 * Relative to the skill folder, "/"-separated.
 */
export function scriptFolders(skillDir: string): string[] {
  const out = new Set<string>();
  for (const entry of fs.readdirSync(skillDir, { withFileTypes: true })) {
    if (!isScriptFolder(entry.name)) continue;
    if (entry.isDirectory()) out.add(entry.name);
    else if (entry.isSymbolicLink()) {
      try {
        const target = fs.realpathSync(path.join(skillDir, entry.name));
        if (target.startsWith(skillDir + path.sep) && fs.statSync(target).isDirectory()) out.add(path.relative(skillDir, target).split(path.sep).join("/"));
      } catch {
        /* dangling: nothing to hide */
      }
    }
  }
  return [...out];
}
