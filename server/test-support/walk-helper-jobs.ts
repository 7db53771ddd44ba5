// Jobs for walk-helper.test.ts: the helper thread loads this module (through tsx) and serves them. Each result says
// which thread made it, and the params make either thread slow, failing or silent on purpose. Run as a script
// (node --import tsx), it shares units with a helper that writes to its standard output and error, and prints "done".
import { pathToFileURL } from "node:url";
import { isMainThread, threadId } from "node:worker_threads";
import { serveWalkHelper, startWalkHelper } from "../runtime/walk-helper";

export interface JobParams {
  /** Milliseconds the command's thread spends on each unit it does. */
  slowHere: number;
  /** Units the helper refuses (throws): odd ones, or every one. */
  helperThrows?: "odd" | "all";
  /** The helper blocks for good on the first unit it takes. */
  helperHangs?: boolean;
  /**
   * A flag the helper raises when it makes its first result (or, hanging, takes its first unit): the command's thread
   * waits for it before finishing any unit, so the helper takes part however slowly it starts on a busy machine.
   */
  helperJoined?: SharedArrayBuffer;
}

/** The flags for `helperJoined`: one Int32, 0 until the helper has joined. */
export const joinFlag = () => new SharedArrayBuffer(4);

/** How long the command's thread waits for the helper: a bound for a helper that never comes, far beyond its start. */
const JOIN_BOUND_MS = 20_000;

export interface JobResult {
  unit: number;
  square: number;
  /** 0 on the command's thread. */
  thread: number;
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

export function square(p: JobParams, unit: number): JobResult {
  if (isMainThread) {
    if (p.helperJoined) Atomics.wait(new Int32Array(p.helperJoined), 0, 0, JOIN_BOUND_MS);
    pause(p.slowHere);
  } else {
    if (p.helperThrows === "all" || (p.helperThrows === "odd" && unit % 2 === 1)) throw new Error(`unit ${unit} refused on the helper`);
    if (p.helperJoined) {
      Atomics.store(new Int32Array(p.helperJoined), 0, 1);
      Atomics.notify(new Int32Array(p.helperJoined), 0);
    }
    if (p.helperHangs) pause(10_000);
  }
  return { unit, square: unit * unit, thread: threadId };
}

/** A job that writes on whichever thread runs it. */
export function noisy(p: JobParams, unit: number): JobResult {
  if (!isMainThread) {
    console.log(`helper output for unit ${unit}`);
    console.error(`helper error output for unit ${unit}`);
  }
  return square(p, unit);
}

serveWalkHelper({ square, noisy });

if (isMainThread && process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const helper = startWalkHelper(import.meta.url, "noisy", noisy, { enabled: true, cpus: 2 })!;
  const byHelper = helper.share({ slowHere: 0, helperJoined: joinFlag() }, Array.from({ length: 60 }, (_, i) => i), () => {});
  helper.close();
  console.log(byHelper > 0 ? "done" : "the helper took no unit");
}
