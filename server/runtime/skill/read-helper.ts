// The helper thread of the CLI's big walks: it runs readUnit (walk-read.ts) on the units the command's thread
// hands out, and the command checks what it reads. Its own module, imported only by the CLI: the helper thread
// loads this file (from source), or its own bundle beside the CLI's (scripts/cli-bundle.mjs), and the console's
// bundler never meets a worker loading itself.
import os from "node:os";
import { serveWalkHelper, startWalkHelper, type WalkHelper } from "../walk-helper";
import type { SkillTreeUnit } from "./discover";
import { readUnit, type UnitRead, type WalkReadOptions } from "./walk-read";

// On a helper thread, this module is what it runs.
serveWalkHelper({ read: readUnit });

/** The helper's bundle file, relative to the CLI bundle: set by scripts/cli-bundle.mjs, absent when run from source. */
declare const __OMNIFORGE_READ_HELPER__: string | undefined;
const helperModule = typeof __OMNIFORGE_READ_HELPER__ === "string" ? new URL(__OMNIFORGE_READ_HELPER__, import.meta.url).href : import.meta.url;

/**
 * A helper thread that walks and reads units while the caller checks what it gets; start it first, so it is
 * ready by the time the units are known. Null when one thread should do it all (see startWalkHelper).
 */
export function startReadHelper(enabled: boolean): WalkHelper<WalkReadOptions, SkillTreeUnit, UnitRead> | null {
  return startWalkHelper(helperModule, "read", readUnit, { enabled, cpus: os.availableParallelism() });
}
