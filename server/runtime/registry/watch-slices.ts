// The layer folders watched a slice at a time. Chokidar reads a tree to watch it with an lstat per entry, and a
// layer of 600 real skills (10,000 entries) handed to it whole held the console's thread for 0.2-0.9 s at the
// first catalog read after start (issues 36/38): its completions arrive faster than the thread gives a turn to
// anything else. So the roots are watched one level deep, and the folders at their top are handed over
// WATCH_SLICE at a time, each slice read before the next starts, with a turn of the event loop between them.
// Folders that appear at a root's top later are watched as they appear. Events of every part go to one handler.
import fs from "node:fs";
import path from "node:path";
import { type ChokidarOptions, type FSWatcher, watch } from "chokidar";
import { yieldToEventLoop } from "../turns";

/** Top folders of a layer root handed to the watch at once (a skill folder is about 15 entries). */
export const WATCH_SLICE = 20;

export class SlicedWatch {
  private top: FSWatcher | null = null;
  private slices: FSWatcher[] = [];
  /** Roots added after the start, and top folders that appeared since: watched whole, as they come. */
  private late: FSWatcher | null = null;
  private roots = new Set<string>();
  private closed = false;
  /** Settles when close() is called: chokidar drops its listeners then, so a `ready` still awaited never comes. */
  private wakeStart!: () => void; // declared before `closing`, whose executor sets it
  private readonly closing = new Promise<void>((resolve) => (this.wakeStart = resolve));

  constructor(
    /** Chokidar's options, `depth` counted from a layer root. */
    private readonly options: ChokidarOptions & { depth: number },
    private readonly onEvent: (event: string, p: string) => void,
    private readonly onError: (e: Error) => void,
    private readonly ignored: (p: string) => boolean,
  ) {}

  /** Watches the roots; resolves when every slice is read. */
  async start(roots: string[]): Promise<void> {
    if (!roots.length) return;
    for (const r of roots) this.roots.add(r);
    this.top = this.part(roots, 0);
    await this.ready(this.top);
    const tops = this.closed ? [] : roots.flatMap((r) => topFolders(r, this.ignored));
    for (let i = 0; i < tops.length && !this.closed; i += WATCH_SLICE) {
      const slice = this.part(tops.slice(i, i + WATCH_SLICE), this.options.depth - 1);
      this.slices.push(slice);
      await this.ready(slice);
      await yieldToEventLoop();
    }
  }

  /** A root that appeared later: watched whole (one such root is small, or it is left to the timer). */
  add(root: string): void {
    this.roots.add(root);
    this.lateWatch().add(root);
  }

  unwatch(root: string): void {
    this.roots.delete(root);
    for (const w of this.parts()) {
      w.unwatch(root);
      for (const watched of Object.keys(w.getWatched())) if (watched.startsWith(root + path.sep)) w.unwatch(watched);
    }
  }

  /** Folders whose contents are watched now (the roots, and what the slices and late parts have taken in so far). */
  folders(): number {
    const below = [...this.slices, this.late].reduce((n, w) => n + (w ? Object.keys(w.getWatched()).length : 0), 0);
    return (this.top ? this.roots.size : 0) + below;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wakeStart();
    const all = this.parts();
    this.top = this.late = null;
    this.slices = [];
    await Promise.all(all.map((w) => w.close()));
  }

  private parts(): FSWatcher[] {
    return [this.top, ...this.slices, this.late].filter((w): w is FSWatcher => w !== null);
  }

  private lateWatch(): FSWatcher {
    return (this.late ??= this.part([], this.options.depth));
  }

  private part(paths: string[], depth: number): FSWatcher {
    const w = watch(paths, { ...this.options, depth });
    w.on("all", (event, p) => {
      // A folder new at a root's top: the top part sees only its name, so it is watched whole from now on.
      if (event === "addDir" && this.roots.has(path.dirname(p)) && !this.closed) this.lateWatch().add(p);
      this.onEvent(event, p);
    });
    w.on("error", (e) => this.onError(e instanceof Error ? e : new Error(String(e))));
    return w;
  }

  /**
   * Chokidar's ready, for a part given at least one path (it never says it for none), or the close: chokidar drops
   * its listeners when closed, and a watch closed while it starts (the index closed, or the switch to polling when
   * the system's watches run out) waited for a ready that never came.
   */
  private ready(w: FSWatcher): Promise<void> {
    return Promise.race([new Promise<void>((resolve) => w.once("ready", () => resolve())), this.closing]);
  }
}

/** The folders at a root's top that the whole watch would have entered (links are not followed). */
function topFolders(root: string, ignored: (p: string) => boolean): string[] {
  try {
    return fs
      .readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !ignored(path.join(root, d.name)))
      .map((d) => path.join(root, d.name));
  } catch {
    return [];
  }
}
