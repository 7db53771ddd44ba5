// A script request checked and turned into what to run, before anything starts: every refusal a caller can
// cause (bad arguments, both or neither of script and command, a script outside the skill) is thrown here.
import fs from "node:fs";
import path from "node:path";
import { envProblem } from "./command-line";
import { checkLimits } from "./limits";
import { realScratchFolder } from "./scratch-dir";
import { interpreterFor, realSkillDir, resolveScript, SandboxRefusal, scriptFolders } from "./script-path";
import { executable } from "./self-test";
import type { ScriptLimits, ScriptRequest, ScriptResult } from "./types";

const MAX_ARGS = 1000;
const MAX_TEXT = 1024 * 1024;

export interface Plan {
  inner: string[]; // argv as the sandbox sees it
  unsafeInner: string[]; // argv with host paths, for unsafe mode
  display: string[];
  skillDir: string;
  /** Skill folders covered for this run (a command's view of the skill has no scripts/). */
  hidden: string[];
  scratchDir: string;
  stdin?: string;
  env?: Record<string, string>;
  /** Relative to the scratch folder; "" or absent for the scratch itself. */
  workdir?: string;
  limits: Partial<ScriptLimits> | undefined;
  signal?: AbortSignal;
}

/** Validates the request and works out what to run; throws SandboxRefusal before anything starts. */
export function planRequest(req: ScriptRequest): Plan {
  if (!req || typeof req !== "object") throw new SandboxRefusal("Empty script request");
  const args = req.args ?? [];
  if (!Array.isArray(args) || args.length > MAX_ARGS || args.some((a) => typeof a !== "string" || a.includes("\0"))) {
    throw new SandboxRefusal(`Script arguments must be at most ${MAX_ARGS} strings without NUL bytes`);
  }
  if (req.stdin !== undefined && (typeof req.stdin !== "string" || req.stdin.length > MAX_TEXT)) {
    throw new SandboxRefusal("stdin must be a string of at most 1 MiB");
  }
  if (typeof req.scratchDir !== "string" || !path.isAbsolute(req.scratchDir)) {
    throw new SandboxRefusal(`The scratch folder must be an absolute path, got "${String(req.scratchDir)}"`);
  }
  checkLimits(req.limits, "script limits");
  const badEnv = envProblem(req.env);
  if (badEnv) throw new SandboxRefusal(badEnv);
  const workdir = checkWorkdir(req.scratchDir, req.workdir);
  const base = { scratchDir: req.scratchDir, workdir, stdin: req.stdin, env: req.env, limits: req.limits, signal: req.signal };
  if (req.script !== undefined && req.command !== undefined) throw new SandboxRefusal("Give either a script or a command, not both");
  if (req.command !== undefined) {
    if (typeof req.command !== "string" || req.command.trim() === "" || req.command.includes("\0") || req.command.length > MAX_TEXT) {
      throw new SandboxRefusal("The command must be a non-empty string without NUL bytes");
    }
    const skillDir = realSkillDir(req.skillDir);
    const inner = ["/usr/bin/bash", "-c", req.command, "bash", ...args];
    // Decided here, not by reading the command: whatever it spells, a command cannot open a script.
    const hidden = skillDir === realScratch(req.scratchDir) ? [] : scriptFolders(skillDir);
    return { ...base, skillDir, hidden, inner, unsafeInner: inner, display: ["/usr/bin/bash", "-c", req.command, ...args] };
  }
  if (req.script === undefined) throw new SandboxRefusal("Give a script path or a command to run");
  const script = resolveScript(req.skillDir, req.script);
  const inside = `/skill/${script.relative}`;
  const interp = interpreterFor(script.file, req.script);
  if (interp[0] && !executable(interp[0])) {
    throw new SandboxRefusal(`The interpreter ${interp[0]} for ${req.script} is not installed on this host`);
  }
  return {
    ...base,
    skillDir: script.skillDir,
    hidden: [],
    inner: [...interp, inside, ...args],
    unsafeInner: [...interp, script.file, ...args],
    display: [...interp, inside, ...args],
  };
}

/** The working folder relative to the scratch; refused when it is not a folder really inside it (a symlink may point anywhere). */
function checkWorkdir(scratchDir: string, workdir: unknown): string {
  if (workdir === undefined || workdir === "" || workdir === ".") return "";
  if (typeof workdir !== "string" || workdir.includes("\0") || path.isAbsolute(workdir)) {
    throw new SandboxRefusal("workdir must be a folder relative to the scratch folder");
  }
  const found = realScratchFolder(scratchDir, path.resolve(scratchDir, workdir));
  if ("rel" in found) return found.rel;
  throw new SandboxRefusal(
    found.problem === "missing" ? `workdir "${workdir}" does not exist in the scratch folder` : `workdir "${workdir}" is not a folder inside the scratch folder`,
  );
}

function realScratch(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return dir;
  }
}

/** What a refused request shows as its command: as much of it as can be read without trusting it. */
export function displayOf(req: ScriptRequest | undefined): string[] {
  if (!req) return [];
  if (typeof req.command === "string") return ["/usr/bin/bash", "-c", req.command];
  return typeof req.script === "string" ? [req.script, ...(Array.isArray(req.args) ? req.args.map(String) : [])] : [];
}

/** A run that never started: a refusal says why in its own words, anything else as "could not be run". */
export function refusal(err: unknown, sandboxed: boolean, command: string[]): ScriptResult {
  const message = err instanceof SandboxRefusal ? err.message : `The script could not be run: ${(err as Error)?.message ?? String(err)}`;
  return {
    exitCode: null,
    stdout: "",
    stderr: "",
    truncated: false,
    timedOut: false,
    durationMs: 0,
    sandboxed,
    command,
    refused: message,
  };
}
