// The server-side layer (SANDBOX.md §5.1.1): argv without a shell, a minimal env, byte caps on
// stdout+stderr, a wall-clock timer and cancellation, all ending in SIGKILL of the direct child.
import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import os from "node:os";
import { formatBytes } from "./limits";
import type { ProcessOutcome } from "./types";

export interface CappedRun {
  argv: string[];
  /** Passed as is: callers give a minimal env, never the server's environment (SANDBOX.md §4.1). */
  env: Record<string, string>;
  cwd: string;
  stdin?: string;
  wallMs: number;
  outputBytes: number;
  signal?: AbortSignal;
  /** Unsafe mode only: the child leads its own process group, which is killed at the end. */
  killGroup?: boolean;
}

export interface CappedResult extends ProcessOutcome {
  cancelled: boolean;
  /** The wrapper could not be started at all (e.g. ENOENT). */
  spawnError?: string;
}

/** 128+N → the signal's name (bwrap reports a child killed by signal N that way, §4.8). */
export function signalName(exitCode: number | null): string | undefined {
  if (exitCode === null || exitCode <= 128 || exitCode > 128 + 64) return undefined;
  const n = exitCode - 128;
  const entry = Object.entries(os.constants.signals).find(([, v]) => v === n);
  return entry?.[0];
}

export function runCapped(run: CappedRun): Promise<CappedResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const chunks: { out: Buffer[]; err: Buffer[] } = { out: [], err: [] };
    let total = 0;
    let truncatedIn: "out" | "err" | undefined;
    let timedOut = false;
    let cancelled = false;
    let settled = false;
    let exit: { code: number | null; sig: NodeJS.Signals | null } | undefined;
    let closeGuard: NodeJS.Timeout | undefined;

    const stdio: StdioOptions = [run.stdin !== undefined ? "pipe" : "ignore", "pipe", "pipe"];
    const child: ChildProcess = spawn(run.argv[0]!, run.argv.slice(1), {
      env: run.env as NodeJS.ProcessEnv,
      cwd: run.cwd,
      stdio,
      detached: run.killGroup === true,
      windowsHide: true,
    });

    const kill = () => {
      try {
        if (run.killGroup && child.pid) process.kill(-child.pid, "SIGKILL");
        else child.kill("SIGKILL");
      } catch {
        /* already gone */
      }
    };

    const onData = (which: "out" | "err") => (chunk: Buffer) => {
      if (truncatedIn) return;
      const room = run.outputBytes - total;
      if (chunk.length > room) {
        if (room > 0) chunks[which].push(chunk.subarray(0, room));
        total = run.outputBytes;
        truncatedIn = which;
        kill();
        return;
      }
      chunks[which].push(chunk);
      total += chunk.length;
    };
    child.stdout!.on("data", onData("out"));
    child.stderr!.on("data", onData("err"));

    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, run.wallMs);
    const onAbort = () => {
      cancelled = true;
      kill();
    };
    run.signal?.addEventListener("abort", onAbort, { once: true });

    if (run.stdin !== undefined && child.stdin) {
      child.stdin.on("error", () => {}); // the script may exit without reading its input
      child.stdin.end(run.stdin);
    }

    const finish = (spawnError?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (closeGuard) clearTimeout(closeGuard);
      run.signal?.removeEventListener("abort", onAbort);
      let exitCode: number | null = null;
      let signal: string | undefined;
      if (exit) {
        if (exit.code !== null) {
          exitCode = exit.code;
          signal = signalName(exit.code);
        } else if (exit.sig) {
          signal = exit.sig;
          exitCode = 128 + (os.constants.signals[exit.sig] ?? 0);
        }
      }
      let stdout = Buffer.concat(chunks.out).toString("utf8");
      let stderr = Buffer.concat(chunks.err).toString("utf8");
      const marker = `\n[output truncated at ${formatBytes(run.outputBytes)}]`;
      if (truncatedIn === "out") stdout += marker;
      if (truncatedIn === "err") stderr += marker;
      if (timedOut) stderr += `\n[killed: wall-clock limit of ${run.wallMs} ms reached]`;
      if (cancelled) stderr += "\n[cancelled]";
      resolve({
        exitCode,
        signal,
        stdout,
        stderr,
        truncated: truncatedIn !== undefined,
        timedOut,
        cancelled,
        durationMs: Math.round(performance.now() - started),
        spawnError,
      });
    };

    child.on("error", (err) => {
      if (!exit) finish(`could not start ${run.argv[0]}: ${err.message}`);
    });
    child.on("exit", (code, sig) => {
      exit = { code, sig };
      if (run.killGroup) kill(); // background children of an unsandboxed script die with it
      // A grandchild that kept the pipes open must not hold the result back.
      closeGuard = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish();
      }, 500);
    });
    child.on("close", () => finish());
    if (run.signal?.aborted) onAbort();
  });
}
