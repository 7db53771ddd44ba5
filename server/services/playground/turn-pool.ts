// The console's side of the turn worker: one process of its own per server process, started on the first turn,
// so a chat's CPU work (ranking the catalog, the loop) never stalls the console's requests. A process rather than
// a thread: every script a turn runs starts with a fork of the process that spawns it, and a fork of the console
// (hundreds of MB mapped) held up its event loop too, while the page tables were copied and on the writes that
// followed (a worker thread forking 25 times a second: the console's loop delay p99 2.6 -> 7 ms, 13% less work
// done; the load bench: issue 15). Events come back as they happen (streaming and stop keep working); if the
// worker dies, its turns end with an error and the next turn starts a new one.
import { fork, type ChildProcess } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { repoRoot } from "../../config";
import { processWide } from "../../process-wide";
import type { AuditSink } from "../../runtime/audit/events";
import { onRefreshAll } from "../catalog/catalog";
import { randomUUID } from "node:crypto";
import type { DisclosureMode } from "../../runtime/agent";
import { processEnv, setting } from "../../../env";
import { postgresUrl } from "../../../db/dialect";
import { listingPreview } from "./listing";
import { readableSession, type Actor } from "./sessions";
import type { ListingCall, FromWorker, ToWorker, TurnJob, TurnOutcome } from "./turn-protocol";
import type { TurnDeps } from "./turn-deps";
import type { StreamEvent } from "./types";

interface Pending {
  push(event: StreamEvent): void;
  audit: AuditSink;
  resolve(outcome: TurnOutcome): void;
}

interface PoolState {
  worker: ChildProcess | null;
  /** Resolves when the current worker has loaded its modules. */
  ready: Promise<void>;
  pending: Map<string, Pending>;
  calls: Map<string, { resolve(value: unknown): void; reject(e: Error): void }>;
  unsubscribe: (() => void) | null;
}

const state = processWide<PoolState>("playgroundTurnWorker", () => ({ worker: null, ready: Promise.resolve(), pending: new Map(), calls: new Map(), unsubscribe: null }));

/** How much lower the turn worker's priority is than the server's (nice): under contention it gets about a third of the CPU the server gets (CFS weights 335 : 1024). */
export const TURN_WORKER_NICE = 5;

function workerFile(): string {
  return path.join(/*turbopackIgnore: true*/ repoRoot(), "server", "services", "playground", "turn-worker.ts");
}

/** The worker runs TypeScript sources: through tsx, already loaded when the console runs under it. */
function execArgv(): string[] {
  return process.execArgv.some((a) => a.includes("tsx")) ? process.execArgv : [...process.execArgv, "--import", "tsx"];
}

function failAll(s: PoolState, message: string): void {
  for (const [, p] of s.pending) p.resolve({ answer: "", reason: "error", error: message });
  s.pending.clear();
  for (const [, c] of s.calls) c.reject(new Error(message));
  s.calls.clear();
}

/** Sends to the worker; a worker gone meanwhile is reported by its exit, which fails what waited for it. */
function post(w: ChildProcess, message: ToWorker): void {
  if (!w.connected) return;
  w.send(message, (e) => {
    if (e) w.kill();
  });
}

function worker(): ChildProcess {
  const s = state();
  if (s.worker) return s.worker;
  // The worker's indexes do not watch the disk themselves: the console's watcher sends them every change
  // (refreshAll -> "refresh"), so the folders are followed once. "advanced": messages are structured clones, as
  // between threads (Dates stay Dates).
  const env: NodeJS.Dict<string> = { ...processEnv(), OMNIFORGE_WATCH: "0" };
  const w = fork(workerFile(), [], {
    execArgv: execArgv(),
    env: env as NodeJS.ProcessEnv,
    serialization: "advanced",
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  // Page reads before agent turns when the cores are short: a turn takes seconds and streams, a list or a detail page
  // is waited for. The worker (and the scripts it starts) runs at a lower priority than the server.
  if (w.pid !== undefined) {
    try {
      os.setPriority(w.pid, Math.min(19, os.getPriority() + TURN_WORKER_NICE));
    } catch {
      // Not allowed here (a container without the right): it runs at the server's priority.
    }
  }
  // A running turn keeps it busy; an idle worker must not keep the console's process alive.
  w.unref();
  w.channel?.unref();
  let loaded: () => void = () => {};
  s.ready = new Promise<void>((resolve) => (loaded = resolve));
  w.on("message", (m: FromWorker) => {
    if (m.type === "ready") {
      loaded();
      return;
    }
    if (m.type === "listed") {
      const c = s.calls.get(m.id);
      s.calls.delete(m.id);
      if (m.error !== undefined) c?.reject(new Error(m.error));
      else c?.resolve(m.value);
      return;
    }
    const p = s.pending.get(m.id);
    if (!p) return;
    // Audit records go through the console's own sink, which keeps the hash chain in one writer.
    if (m.type === "audit") p.audit.record(m.event);
    else if (m.type === "event") p.push(m.event);
    else if (m.type === "done") {
      s.pending.delete(m.id);
      p.resolve(m.outcome);
    }
  });
  const gone = (why: string) => {
    if (s.worker !== w) return;
    s.worker = null;
    loaded();
    failAll(s, `the playground's turn worker stopped: ${why}`);
  };
  w.on("error", (e) => gone(e.message));
  w.on("exit", (code, signal) => gone(signal ? `signal ${signal}` : `exit code ${code}`));
  s.unsubscribe ??= onRefreshAll((paths) => {
    if (s.worker) post(s.worker, { type: "refresh", paths });
  });
  s.worker = w;
  return w;
}

/**
 * Starts the worker ahead of the first turn (loading its modules takes about a second), so opening the playground
 * is what pays for it rather than the first message. Resolves when it is ready, with its process id (undefined when
 * turns run in this thread).
 */
export async function warmTurnWorker(env = processEnv()): Promise<number | undefined> {
  if (!setting("OMNIFORGE_TURN_WORKER", env)) return undefined;
  const w = worker();
  await state().ready;
  return w.pid;
}

/** Runs a turn in the worker; resolves with its outcome however it ends (the abort signal stops it there). */
export function runInWorker(job: TurnJob, hooks: { push(event: StreamEvent): void; audit: AuditSink; signal: AbortSignal }): Promise<TurnOutcome> {
  const s = state();
  const w = worker();
  return new Promise<TurnOutcome>((resolve) => {
    s.pending.set(job.id, { push: hooks.push, audit: hooks.audit, resolve });
    const abort = () => post(w, { type: "abort", id: job.id });
    if (hooks.signal.aborted) abort();
    else hooks.signal.addEventListener("abort", abort, { once: true });
    post(w, { type: "run", job });
  });
}

/**
 * The side panel's listing preview, computed in the worker (it reads and ranks the whole catalog). Who may read
 * the session is checked here first, so a refusal is the caller's ServiceError as before.
 */
export async function listingFor(
  deps: Pick<TurnDeps, "db" | "dataHome" | "env">,
  actor: Actor,
  sessionId: string,
  mode?: DisclosureMode,
  request = "",
): Promise<Awaited<ReturnType<typeof listingPreview>>> {
  await readableSession(deps.db, actor, sessionId);
  const env = deps.env ?? processEnv();
  if (!setting("OMNIFORGE_TURN_WORKER", env)) return listingPreview(deps, actor, sessionId, mode, request);
  const s = state();
  const w = worker();
  const call: ListingCall = { id: randomUUID(), dataHome: deps.dataHome, database: postgresUrl(deps.db), env: { ...env }, actor: { id: actor.id, role: actor.role }, sessionId, ...(mode ? { mode } : {}), request };
  return new Promise((resolve, reject) => {
    s.calls.set(call.id, { resolve: resolve as (v: unknown) => void, reject });
    post(w, { type: "listing", call });
  });
}
