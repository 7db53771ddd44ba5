// A second thread for the CLI's big walks (a first `skill list` of a large catalog): the walk is cut into units
// (folders below the layer roots, discover.ts's skillTreeUnits); a helper thread runs the job on them (walking and
// reading: system calls, walk-read.ts) while the command's thread uses what arrives (parsing and checking). The
// command stays synchronous: it waits for the helper with Atomics.wait and takes its results with
// receiveMessageOnPort, so an index build is still a plain function call.
//
// Both threads claim units from one shared counter, and the command's thread does a unit itself only when no result
// is waiting: while the helper starts (about 30 ms) the command works alone, so a small catalog is done before the
// helper takes anything. Whatever the helper fails at (a unit that throws, a helper that stops answering) the
// command does itself: the result never depends on the helper. The module holding the job calls serveWalkHelper at
// its top level, and the helper thread loads that module from its own URL (the CLI bundle's chunk, or the TypeScript
// source through tsx when run from source).
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { isMainThread, MessageChannel, type MessagePort, receiveMessageOnPort, Worker, workerData } from "node:worker_threads";

const TAG = "omniforge-walk-helper";
/** Int32 slots of the shared counters. */
const NEXT = 0; // the next unclaimed unit
const POSTED = 1; // batches the helper has posted (the command waits on it)
/** The helper has been silent this long while owing results: its units are done by the command instead. */
const DEFAULT_SILENCE_MS = 10_000;
/** The helper's own output never joins the command's (a listing's JSON on standard output stays whole). */
const QUIET = { stdout: true, stderr: true } as const;
/** Results the helper gathers before posting them: fewer messages, still a steady flow for the command's thread. */
const BATCH = 8;

/**
 * OMNIFORGE_SCAN_THREAD from the command's environment: "0" (or off, false, no) keeps big walks on one thread.
 * Read as given, like OMNIFORGE_CACHE_DIR (listing-cache.ts): env.ts's setting() would load zod at every listing.
 */
export function scanThreadFrom(env: Record<string, string | undefined>): boolean {
  return !/^(off|0|false|no)$/i.test(env.OMNIFORGE_SCAN_THREAD?.trim() ?? "");
}

/** A job: what each thread does with one unit. `params` are plain data, the same on both threads. */
export type WalkJob<P, U, R> = (params: P, unit: U) => R;

interface Init {
  tag: typeof TAG;
  job: string;
  counters: SharedArrayBuffer;
  port: MessagePort;
}

type FromHelper<R> = { results: [index: number, result: R | null, error?: string][] };

export interface WalkHelper<P, U, R> {
  /**
   * Runs `job(params, unit)` for every unit, on either thread, and hands each result to `use` on this thread, as
   * it comes (not in the units' order). This thread takes the helper's results first and does a unit itself only
   * when none is waiting, so it spends its time on `use` while the helper does the jobs. A unit the helper failed
   * at, or holds while silent too long, is done here. Once per helper. Returns how many results the helper made.
   */
  share(params: P, units: U[], use: (result: R, index: number) => void): number;
  /** Stops the helper thread. */
  close(): void;
}

/**
 * Starts a helper thread for `job`, a job the module at `moduleUrl` serves (serveWalkHelper at its top level, with
 * `job` under the same name). It takes about 30 ms to be ready. Null when one thread should do it all: `enabled`
 * false, fewer than two processors, or a helper that cannot start here. `silenceMs`: how long the helper may owe
 * results without a word before this thread does its units itself (default 10 s).
 */
export function startWalkHelper<P, U, R>(
  moduleUrl: string,
  name: string,
  job: WalkJob<P, U, R>,
  opts: { enabled: boolean; cpus: number; silenceMs?: number },
): WalkHelper<P, U, R> | null {
  if (!opts.enabled || opts.cpus < 2 || !isMainThread) return null;
  const silenceMs = opts.silenceMs ?? DEFAULT_SILENCE_MS;
  const counters = new SharedArrayBuffer(8);
  const shared = new Int32Array(counters);
  const { port1, port2 } = new MessageChannel();
  const init: Init = { tag: TAG, job: name, counters, port: port2 };
  let worker: Worker;
  try {
    worker = moduleUrl.endsWith(".ts")
      ? // From source (tests, the CLI without its bundle): the helper compiles the module through tsx, as the caller was.
        new Worker(`import(${JSON.stringify(tsxApi(moduleUrl))}).then(({ register }) => { register(); return import(${JSON.stringify(moduleUrl)}); })`, {
          eval: true,
          workerData: init,
          transferList: [port2],
          ...QUIET,
        })
      : new Worker(new URL(moduleUrl), { workerData: init, transferList: [port2], ...QUIET });
  } catch {
    return null;
  }
  // Never what keeps the process alive, and a helper that fails to start is simply never heard from.
  worker.unref();
  worker.on("error", () => {});
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    port1.close();
    void worker.terminate();
  };
  return {
    share(params, units, use) {
      const local = (i: number) => use(job(params, units[i]!), i);
      const done: boolean[] = new Array(units.length).fill(false);
      let left = units.length;
      let helped = 0;
      port1.postMessage({ params, units });
      let heard = Date.now();
      while (left > 0 && !closed) {
        const posted = Atomics.load(shared, POSTED);
        const message = receiveMessageOnPort(port1) as { message: FromHelper<R> } | undefined;
        if (message) {
          heard = Date.now();
          for (const [i, result, error] of message.message.results) {
            if (done[i]) continue;
            done[i] = true;
            left--;
            if (error === undefined) {
              helped++;
              use(result as R, i);
            } else local(i);
          }
          continue;
        }
        const i = Atomics.add(shared, NEXT, 1);
        if (i < units.length) {
          done[i] = true;
          left--;
          local(i);
          continue;
        }
        // Every unit is claimed: what is left is the helper's, on its way.
        if (Date.now() - heard > silenceMs) break;
        Atomics.wait(shared, POSTED, posted, Math.min(1000, silenceMs));
      }
      if (left > 0) {
        close();
        for (let i = 0; i < units.length; i++) if (!done[i]) local(i);
      }
      return helped;
    },
    close,
  };
}

/** tsx's registration API as an ES module, found from the module being run (the helper's working folder may be anywhere). */
function tsxApi(moduleUrl: string): string {
  try {
    const manifest = createRequire(moduleUrl).resolve("tsx/package.json");
    const entry = (JSON.parse(fs.readFileSync(manifest, "utf8")) as { exports: Record<string, { import: { default: string } }> }).exports["./esm/api"]!.import.default;
    return pathToFileURL(path.join(path.dirname(manifest), entry)).href;
  } catch {
    return "tsx/esm/api";
  }
}

/**
 * The helper thread's side: when this thread is a walk helper started for one of `jobs`, takes units from the
 * shared counter until none is left, posting results in batches. Does nothing on any other thread.
 */
export function serveWalkHelper(jobs: Record<string, WalkJob<never, never, unknown>>): void {
  if (isMainThread) return;
  const init = workerData as Init | undefined;
  if (init?.tag !== TAG) return;
  const job = jobs[init.job] as WalkJob<unknown, unknown, unknown> | undefined;
  if (!job) return;
  const shared = new Int32Array(init.counters);
  const port = init.port;
  port.once("message", ({ params, units }: { params: unknown; units: unknown[] }) => {
    const count = units.length;
    let batch: FromHelper<unknown>["results"] = [];
    const post = () => {
      try {
        port.postMessage({ results: batch } satisfies FromHelper<unknown>);
      } catch (e) {
        // A result that cannot cross threads: the command does those units itself.
        port.postMessage({ results: batch.map(([i]) => [i, null, (e as Error)?.message ?? String(e)]) } satisfies FromHelper<unknown>);
      }
      Atomics.add(shared, POSTED, 1);
      Atomics.notify(shared, POSTED);
      batch = [];
    };
    for (let i = Atomics.add(shared, NEXT, 1); i < count; i = Atomics.add(shared, NEXT, 1)) {
      try {
        batch.push([i, job(params, units[i])]);
      } catch (e) {
        batch.push([i, null, (e as Error)?.message ?? String(e)]);
      }
      if (batch.length >= BATCH) post();
    }
    if (batch.length) post();
    port.close();
  });
}
