// Heavy work off the request thread: parsing a trigger set and doctoring scripts cost time in proportion to what a
// user sends or stores (megabytes), and the console answers every request on one thread, so health checks and
// every page waited behind them (issue 35 item 5). `offload(job, ...args)` runs a job of jobs.ts in one worker
// process per console process, started on first use, the way playground turns run (playground/turn-pool.ts, which
// says why a process rather than a thread). If the worker dies, what waited for it fails with the reason and the
// next call starts a new one.
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { processEnv } from "../../../env";
import { repoRoot } from "../../config";
import { ServiceError } from "../../domain/errors";
import { processWide } from "../../process-wide";
import { JOBS, type FromOffload, type JobArgs, type JobName, type JobResult, type ToOffload } from "./jobs";

interface PoolState {
  worker: ChildProcess | null;
  next: number;
  pending: Map<number, { resolve(value: unknown): void; reject(e: Error): void }>;
}

const state = processWide<PoolState>("offloadWorker", () => ({ worker: null, next: 1, pending: new Map() }));

const workerFile = () => path.join(/*turbopackIgnore: true*/ repoRoot(), "server", "services", "offload", "worker.ts");

/** The worker runs TypeScript sources: through tsx, already loaded when the console runs under it. */
const execArgv = () => (process.execArgv.some((a) => a.includes("tsx")) ? process.execArgv : [...process.execArgv, "--import", "tsx"]);

function worker(): ChildProcess {
  const s = state();
  if (s.worker) return s.worker;
  const w = fork(workerFile(), [], { execArgv: execArgv(), env: processEnv() as NodeJS.ProcessEnv, serialization: "advanced", stdio: ["ignore", "inherit", "inherit", "ipc"] });
  // An idle worker must not keep the console's process alive; a pending call keeps its caller waiting anyway.
  w.unref();
  w.channel?.unref();
  w.on("message", (m: FromOffload) => {
    if (m.type !== "done") return;
    const p = s.pending.get(m.id);
    s.pending.delete(m.id);
    if (m.error !== undefined) p?.reject(m.code ? new ServiceError(m.code, m.error, m.details) : new ServiceError("UNAVAILABLE", `The check could not finish: ${m.error}`));
    else p?.resolve(m.value);
  });
  const gone = (why: string) => {
    if (s.worker !== w) return;
    s.worker = null;
    for (const [, p] of s.pending) p.reject(new ServiceError("UNAVAILABLE", `The console's worker for long checks stopped (${why}); try again.`));
    s.pending.clear();
  };
  w.on("error", (e) => gone(e.message));
  w.on("exit", (code, signal) => gone(signal ? `signal ${signal}` : `exit code ${code}`));
  s.worker = w;
  return w;
}

/** Runs `job` in the offload worker; the console's thread is free meanwhile. */
export function offload<K extends JobName>(job: K, ...args: JobArgs<K>): Promise<JobResult<K>> {
  const s = state();
  const w = worker();
  const id = s.next++;
  return new Promise((resolve, reject) => {
    s.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
    const message: ToOffload = { id, job, args };
    w.send(message, (e) => {
      if (e) w.kill();
    });
  });
}

/** Inputs up to this size cost less than the trip to the worker (milliseconds at most): they run in the caller's thread. */
const IN_THREAD_MAX_CHARS = 32 * 1024;

/** `offload` for a job whose cost follows the size of one text: a small one runs here, at once. */
export async function offloadText<K extends "parseTriggers" | "parseTaskEvals">(job: K, text: string): Promise<JobResult<K>> {
  if (text.length > IN_THREAD_MAX_CHARS) return offload(job as JobName, ...([text] as JobArgs<K>)) as unknown as Promise<JobResult<K>>;
  return (JOBS[job] as (t: string) => JobResult<K>)(text);
}

/** The worker's process id while one runs (tests stop it to see a call fail cleanly). */
export const offloadWorkerPid = (): number | undefined => state().worker?.pid;
