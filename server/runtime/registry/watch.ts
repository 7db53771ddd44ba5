// Follows the layer folders with chokidar and hands debounced batches of changed paths to the index.
// Folders that do not exist yet (no enterprise skills until an admin deploys one) are polled for and added
// when they appear, so nobody has to restart the console after creating them. The first watch of a big layer is
// taken a slice at a time (watch-slices.ts), so the console's first catalog read does not hold its thread.
// Bounded on purpose (issue #12): links are never followed (a link to / would crawl /proc), the depth is the scan's,
// and a layer with more than WATCH_LIMITS.maxPaths entries is rescanned on a timer instead of watched.
import fs from "node:fs";
import path from "node:path";
import { WATCH_LIMITS } from "../../domain/vocabulary";
import { SCAN_MAX_DEPTH } from "./scan";
import { runInTurns, runNow } from "../turns";
import { SlicedWatch } from "./watch-slices";

const WATCH_DEPTH = SCAN_MAX_DEPTH + 2;

export interface WatchOptions {
  /** Quiet time before a batch is applied (default 150 ms). */
  debounceMs?: number;
  /** A batch is applied at the latest this long after its first event, even under constant writes. */
  maxWaitMs?: number;
  /** How often missing layer folders are looked for (default 1000 ms). */
  rootPollMs?: number;
  /** Poll instead of OS notifications (network file systems). Also used automatically when the OS watch limit is hit. */
  usePolling?: boolean;
  /** Told about watcher errors (e.g. the OS watch limit, after which the watcher switches to polling). */
  onError?: (error: Error) => void;
  /** Entries per root above which the root is rescanned on a timer instead of watched (default WATCH_LIMITS.maxPaths). */
  maxPaths?: number;
  /** Rescan period of such a root (default WATCH_LIMITS.pollMs). */
  bigRootPollMs?: number;
}

/** What the watcher does with one layer root: for /api/health and the console's warnings. */
export interface WatchState {
  mode: "notify" | "polling";
  /** Roots too big to watch, rescanned every bigRootPollMs. */
  tooBig: string[];
}

const IGNORED = /(^|[/\\])(node_modules|\.git)([/\\]|$)/;

export class RegistryWatcher {
  private fsw: SlicedWatch | null = null;
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private firstPendingAt = 0;
  private poll: NodeJS.Timeout | null = null;
  private watched = new Set<string>();
  /** Roots too big to watch: rescanned on a timer. */
  private big = new Set<string>();
  private bigPoll: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly targets: () => string[],
    private readonly apply: (paths: string[]) => void,
    private readonly opts: WatchOptions = {},
  ) {}

  private polling = false;

  async start(): Promise<void> {
    this.polling = this.opts.usePolling === true;
    await this.open();
    if (this.closed) return;
    this.poll = setInterval(() => this.addNewTargets(), this.opts.rootPollMs ?? 1000);
    this.poll.unref();
  }

  state(): WatchState {
    return { mode: this.polling ? "polling" : "notify", tooBig: [...this.big] };
  }

  /** Roots over the budget are left to the timer; the rest are watched. `counts`: entries counted ahead (else counted now). */
  private split(roots: string[], counts?: Map<string, number>): string[] {
    const max = this.opts.maxPaths ?? WATCH_LIMITS.maxPaths;
    const small: string[] = [];
    for (const r of roots) {
      if ((counts?.get(r) ?? countUpTo(r, max + 1, WATCH_DEPTH)) > max) {
        if (!this.big.has(r)) {
          this.big.add(r);
          this.opts.onError?.(new Error(`${r} holds more than ${max} files and folders: too big to watch; it is rescanned every ${Math.round((this.opts.bigRootPollMs ?? WATCH_LIMITS.pollMs) / 1000)} s instead`));
        }
      } else small.push(r);
    }
    if (this.big.size && !this.bigPoll) {
      this.bigPoll = setInterval(() => {
        for (const r of this.big) this.queue(r);
      }, this.opts.bigRootPollMs ?? WATCH_LIMITS.pollMs);
      this.bigPoll.unref();
    }
    return small;
  }

  private async open(): Promise<void> {
    const existing = this.targets().filter(isDir);
    this.watched = new Set(existing);
    // Counted a slice per turn: the console's first catalog read starts the watch while health is being asked.
    const counts = new Map<string, number>();
    for (const r of existing) counts.set(r, await runInTurns(countSteps(r, (this.opts.maxPaths ?? WATCH_LIMITS.maxPaths) + 1, WATCH_DEPTH)));
    if (this.closed) return; // closed while counting
    const small = this.split(existing, counts);
    const ignored = (p: string) => IGNORED.test(p);
    const options = { ignoreInitial: true, persistent: false, followSymlinks: false, depth: WATCH_DEPTH, ignored, usePolling: this.polling, interval: 1000, binaryInterval: 1000 };
    const fsw = new SlicedWatch(options, (_event, p) => this.queue(p), (e) => this.failed(e), ignored);
    this.fsw = fsw;
    await fsw.start(small);
  }

  /** Out of inotify watches (ENOSPC) or file handles (EMFILE): keep following the disk by polling. */
  private failed(error: Error): void {
    this.opts.onError?.(error);
    const code = (error as NodeJS.ErrnoException).code;
    if (this.polling || this.closed || (code !== "ENOSPC" && code !== "EMFILE")) return;
    this.polling = true;
    const old = this.fsw;
    this.fsw = null;
    void (async () => {
      await old?.close();
      if (this.closed) return;
      await this.open();
      for (const t of this.watched) this.queue(t); // catch up on what changed while switching
    })();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.poll) clearInterval(this.poll);
    if (this.bigPoll) clearInterval(this.bigPoll);
    this.timer = this.poll = this.bigPoll = null;
    const fsw = this.fsw;
    this.fsw = null;
    if (fsw) await fsw.close();
  }

  /** Looks at the targets again now (a new one is watched at once instead of at the next poll). */
  addNewTargets(): void {
    if (!this.fsw || this.closed) return;
    const targets = this.targets();
    // A target can stop being one (a layer folder replaced by a link out of the project): no longer watched or polled.
    for (const t of [...this.watched]) {
      if (targets.includes(t)) continue;
      this.watched.delete(t);
      this.big.delete(t);
      this.fsw.unwatch(t);
      this.queue(t);
    }
    for (const t of targets) {
      const present = isDir(t);
      if (present && !this.watched.has(t)) {
        this.watched.add(t);
        if (this.split([t]).length) this.fsw.add(t);
        this.queue(t); // scan what was created before the watch was in place
      } else if (!present && this.watched.has(t)) {
        this.watched.delete(t);
        this.big.delete(t);
        this.fsw.unwatch(t);
        this.queue(t);
      }
    }
  }

  private queue(p: string): void {
    if (this.closed) return;
    if (!this.pending.size) this.firstPendingAt = Date.now();
    this.pending.add(p);
    if (this.timer) clearTimeout(this.timer);
    const debounce = this.opts.debounceMs ?? 150;
    const waited = Date.now() - this.firstPendingAt;
    const delay = Math.max(0, Math.min(debounce, (this.opts.maxWaitMs ?? 1000) - waited));
    this.timer = setTimeout(() => this.flush(), delay);
  }

  private flush(): void {
    this.timer = null;
    if (this.closed || !this.pending.size) return;
    const batch = [...this.pending];
    this.pending.clear();
    try {
      this.apply(batch);
    } catch (e) {
      this.opts.onError?.(e as Error);
    }
  }
}

/** Entries below root (links not followed, hidden and dependency folders skipped), counting stops at `limit`. */
export function countUpTo(root: string, limit: number, maxDepth: number): number {
  return runNow(countSteps(root, limit, maxDepth));
}

/** Folders read between two pauses of countSteps (a layer of 600 real skills is about 2,000 folders). */
const COUNT_SLICE = 100;

/** countUpTo as steps: a pause after every COUNT_SLICE folders read (a first watch of 10,000 entries held the thread 0.1-0.2 s). */
function countSteps(root: string, limit: number, maxDepth: number): Generator<void, number> {
  let n = 0;
  let read = 0;
  function* walk(dir: string, depth: number): Generator<void, void> {
    if (++read % COUNT_SLICE === 0) yield;
    let list: fs.Dirent[];
    try {
      list = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of list) {
      if (++n >= limit) return;
      if (d.isDirectory() && depth < maxDepth && !IGNORED.test(d.name)) yield* walk(path.join(dir, d.name), depth + 1);
      if (n >= limit) return;
    }
  }
  return (function* () {
    yield* walk(root, 0);
    return n;
  })();
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
