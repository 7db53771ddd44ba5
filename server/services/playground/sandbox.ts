// One sandbox per server process for every playground session (its concurrency limit is what keeps two
// cores usable), and a per-turn view of it that says when a script has to wait for a free slot.
import { createSandbox, unsafeRequested, type Sandbox } from "../../runtime/sandbox/index";
import type { ScriptRunner } from "../../runtime/sandbox/types";
import { processWide } from "../../process-wide";
import type { PlaygroundNote } from "./types";
import { processEnv, setting, type EnvSource } from "../../../env";

export interface SharedRunner {
  sandbox: ScriptRunner & { close?: () => Promise<void> };
  limit: number;
  /** Scripts started through the playground and not finished yet (running or queued). */
  inFlight: number;
}

const cache = processWide("playgroundSandboxes", () => new Map<string, SharedRunner>());

export function scriptLimit(env: EnvSource = processEnv()): number {
  return setting("OMNIFORGE_SCRIPT_CONCURRENCY", env);
}

/** The process-wide sandbox for a scratch root (created on first use). */
export function sharedRunner(scratchRoot: string, env: EnvSource = processEnv()): SharedRunner {
  let s = cache().get(scratchRoot);
  if (!s) {
    const limit = scriptLimit(env);
    const sandbox: Sandbox = createSandbox({ scratchRoot, maxConcurrent: limit, unsafe: unsafeRequested(env) });
    s = { sandbox, limit, inFlight: 0 };
    cache().set(scratchRoot, s);
  }
  return s;
}

/** Wraps an existing runner (tests, or a host with its own sandbox) with the same bookkeeping. */
export function wrapRunner(sandbox: ScriptRunner, limit: number): SharedRunner {
  return { sandbox, limit, inFlight: 0 };
}

export async function closePlaygroundSandboxes(): Promise<void> {
  const all = [...cache().values()];
  cache().clear();
  await Promise.all(all.map((s) => s.sandbox.close?.()));
}

/** The runner one turn uses: the shared one, reporting "queued" when every slot is taken. */
export function turnRunner(shared: SharedRunner, note: (n: PlaygroundNote) => void): ScriptRunner {
  return {
    status: () => shared.sandbox.status(),
    async run(req) {
      const running = shared.inFlight;
      shared.inFlight++;
      if (running >= shared.limit) note({ type: "script_queued", running: Math.min(running, shared.limit), limit: shared.limit, waiting: running - shared.limit + 1 });
      try {
        const r = await shared.sandbox.run(req);
        if ((r.queuedMs ?? 0) >= 20) note({ type: "script_waited", waitedMs: r.queuedMs! });
        return r;
      } finally {
        shared.inFlight--;
      }
    },
  };
}
