// What a script tool's `env` and `workdir` become before the sandbox sees them: variables that would weaken
// the sandbox are dropped (and named, so the model knows), and the working folder must really be in the scratch.
import path from "node:path";
import { SCRIPT_ENV_BLOCKED_NAMES, SCRIPT_ENV_BLOCKED_PREFIXES, SCRIPT_ENV_PROXY_MARK } from "../../../domain/skill-protocol";
import { realScratchFolder } from "../../sandbox/scratch-dir";
import { isInside, PathError } from "../paths";

const BLOCKED = new Set(SCRIPT_ENV_BLOCKED_NAMES);

/** Why a variable may not be passed, or null when it may. */
export function blockedEnvReason(name: string): string | null {
  const upper = name.toUpperCase();
  if (upper === "PATH") return "the search path is fixed by the sandbox";
  if (BLOCKED.has(upper)) return "it changes what runs, not what the script is told";
  if (SCRIPT_ENV_BLOCKED_PREFIXES.some((p) => upper.startsWith(p))) return upper.startsWith("LD_") || upper.startsWith("DYLD_") ? "it steers the dynamic loader" : "it changes what runs, not what the script is told";
  if (upper.includes(SCRIPT_ENV_PROXY_MARK)) return "proxy settings are not passed to scripts";
  return null;
}

export interface FilteredEnv {
  env: Record<string, string>;
  dropped: { name: string; why: string }[];
}

export function filterScriptEnv(env: Record<string, string> | undefined): FilteredEnv {
  const out: FilteredEnv = { env: {}, dropped: [] };
  for (const [name, value] of Object.entries(env ?? {})) {
    const why = blockedEnvReason(name);
    if (why) out.dropped.push({ name, why });
    else out.env[name] = value;
  }
  return out;
}

/**
 * The working folder relative to the scratch ("" for the scratch itself), "/"-separated. Accepts a relative path,
 * the sandbox's spelling (/scratch/...) or the host path; refuses anything whose real path leaves the scratch.
 */
export function resolveWorkdir(scratchDir: string, workdir: string | undefined): string {
  const given = (workdir ?? "").trim();
  if (given === "" || given === "." || given === "/scratch") return "";
  if (given.includes("\0")) throw new PathError("The workdir contains a NUL byte");
  const scratch = path.resolve(scratchDir);
  let abs: string;
  if (given.startsWith("/scratch/")) abs = path.join(scratch, given.slice("/scratch/".length));
  else if (path.isAbsolute(given)) abs = path.resolve(given);
  else abs = path.resolve(scratch, given);
  const refuse = () => new PathError(`workdir "${given}" is outside the scratch folder: scripts run in /scratch or a folder below it`);
  if (!isInside(scratch, abs)) throw refuse();
  const found = realScratchFolder(scratch, abs);
  if ("rel" in found) return found.rel;
  if (found.problem === "outside") throw refuse();
  throw new PathError(
    found.problem === "missing" ? `workdir "${given}" does not exist in the scratch folder (create it first, e.g. with write_file)` : `workdir "${given}" is not a folder`,
  );
}
