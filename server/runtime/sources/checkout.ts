// Fetching a source's commit and laying it out as a read-only checkout in the data home. The tree is bounded
// (files, bytes) from git's own listing before a file is written, is written without hooks, submodules or filters
// (read-tree + checkout-index, not `git checkout`), and is refused whole when a link in it leaves it.
import fs from "node:fs";
import path from "node:path";
import { linkEscape } from "../registry/confine";
import { count } from "../../domain/plural";
import { runGit } from "./git";
import { cacheDir, checkoutDir } from "./state";

export interface SourceBounds {
  maxFiles: number;
  maxBytes: number;
  gitTimeoutMs: number;
}

/** A source that cannot be fetched or laid out as asked; `code` is stable, the message is one line for a person. */
export class SourceError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = "SourceError";
  }
}

export interface GitPlace {
  home: string;
  name: string;
  bounds: SourceBounds;
  /** The caller's environment (gitEnv takes PATH, proxies and the ssh agent's socket from it). */
  callerEnv?: Record<string, string | undefined>;
}

const FETCHED = "refs/omniforge/fetched";
const isCommitId = (s: string) => /^[0-9a-f]{40}$/i.test(s);

function git(place: GitPlace, args: string[], more: Partial<Parameters<typeof runGit>[1]> = {}): Promise<string> {
  return runGit(args, { gitDir: cacheDir(place.home, place.name), timeoutMs: place.bounds.gitTimeoutMs, callerEnv: place.callerEnv, ...more });
}

/** The source's bare cache repository, made on first use. */
async function ensureCache(place: GitPlace): Promise<void> {
  const dir = cacheDir(place.home, place.name);
  if (fs.existsSync(path.join(dir, "HEAD"))) return;
  fs.mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
  await runGit(["init", "-q", "--bare", dir], { timeoutMs: place.bounds.gitTimeoutMs, callerEnv: place.callerEnv });
}

/**
 * Fetches `refOrCommit` of `url` shallowly (`depth` commits) and returns the commit id it names. A 40-hex value is
 * fetched as that commit (servers that allow it; a commit already in the cache needs no fetch).
 */
export async function fetchRef(place: GitPlace, url: string, refOrCommit: string, depth = 1): Promise<string> {
  await ensureCache(place);
  if (isCommitId(refOrCommit)) {
    const have = await git(place, ["cat-file", "-t", refOrCommit]).catch(() => "");
    if (have.trim() !== "commit") await git(place, ["fetch", "-q", "--no-tags", `--depth=${depth}`, "--", url, refOrCommit], { url });
    return (await git(place, ["rev-parse", "--verify", `${refOrCommit}^{commit}`])).trim();
  }
  await git(place, ["fetch", "-q", "--no-tags", "--no-write-fetch-head", `--depth=${depth}`, "--", url, `+${refOrCommit}:${FETCHED}`], { url }).catch((e: Error) => {
    if (!/couldn't find remote ref/.test(e.message)) throw e;
    const why = refOrCommit === "HEAD" ? "its HEAD names no branch" : `it has no branch or tag "${refOrCommit}"`;
    throw new SourceError(`the repository was reached, but ${why}; give --ref with a branch or tag it has`, "source.no-ref");
  });
  return (await git(place, ["rev-parse", "--verify", `${FETCHED}^{commit}`])).trim();
}

/**
 * How many commits `pinned` is behind the ref's head, fetching deeper until the pinned commit is in the head's
 * history; null when it never is (the ref was force-pushed past it, or it is more than 1,024 commits back).
 */
export async function commitsBehind(place: GitPlace, url: string, ref: string, pinned: string): Promise<{ head: string; behind: number | null }> {
  let head = await fetchRef(place, url, ref, 1);
  if (head === pinned) return { head, behind: 0 };
  for (let depth = 2; depth <= 1024; depth *= 4) {
    if (await isAncestor(place, pinned, head)) break;
    head = await fetchRef(place, url, ref, depth);
  }
  if (!(await isAncestor(place, pinned, head))) return { head, behind: null };
  return { head, behind: Number((await git(place, ["rev-list", "--count", `${pinned}..${head}`])).trim()) };
}

export async function isAncestor(place: GitPlace, older: string, newer: string): Promise<boolean> {
  return git(place, ["merge-base", "--is-ancestor", older, newer]).then(
    () => true,
    () => false,
  );
}

/**
 * Lays `commit` out in <home>/sources/<name>/<commit>/ (read-only) unless it is there already; checks `subPath` is a
 * folder of it. Throws a SourceError, having written nothing that stays, when a bound or a link refuses it.
 */
export async function checkOut(place: GitPlace, commit: string, subPath: string): Promise<string> {
  const final = checkoutDir(place.home, place.name, commit);
  if (fs.existsSync(final)) return final;
  await checkBounds(place, commit);
  if (subPath) {
    const kind = (await git(place, ["cat-file", "-t", `${commit}:${subPath}`]).catch(() => "")).trim();
    if (kind !== "tree") throw new SourceError(`--path ${subPath}: no such folder in commit ${commit.slice(0, 12)}`, "source.no-path");
  }
  const tmp = `${final}.tmp-${process.pid}`;
  removeTree(tmp);
  fs.mkdirSync(tmp, { recursive: true, mode: 0o700 });
  const index = `${tmp}.index`;
  try {
    await git(place, ["read-tree", commit], { env: { GIT_INDEX_FILE: index } });
    await git(place, ["checkout-index", "-a", "-f"], { env: { GIT_INDEX_FILE: index }, workTree: tmp });
    const escape = linksLeaving(tmp);
    if (escape) {
      // A link to nothing is refused too: what it names could appear outside the checkout later.
      const what = escape.code === "link.broken" ? "a symbolic link to nothing" : "a symbolic link that leaves the repository";
      throw new SourceError(`commit ${commit.slice(0, 12)} has ${what} (${escape.path}); sources refuse it like any layer's links, and nothing was read through it`, escape.code);
    }
    makeReadOnly(tmp);
    fs.renameSync(tmp, final);
    return final;
  } catch (e) {
    removeTree(tmp);
    throw e;
  } finally {
    fs.rmSync(index, { force: true });
  }
}

/** Counts the commit's files and bytes from git's listing, stopping git as soon as a bound is passed. */
async function checkBounds(place: GitPlace, commit: string): Promise<void> {
  const { maxFiles, maxBytes } = place.bounds;
  let files = 0;
  let bytes = 0;
  let over: string | null = null;
  await git(place, ["ls-tree", "-r", "-l", "-z", "--full-tree", commit], {
    separator: "\0",
    onRecord: (rec) => {
      files++;
      const size = Number(rec.split("\t", 1)[0]!.trim().split(/\s+/)[3]);
      if (Number.isFinite(size)) bytes += size;
      if (files > maxFiles) over = `more than ${count(maxFiles, "file")}`;
      else if (bytes > maxBytes) over = `more than ${Math.round(maxBytes / 1024 / 1024)} MiB`;
      return over === null;
    },
  });
  if (over) throw new SourceError(`commit ${commit.slice(0, 12)} holds ${over}; a source is limited to ${count(maxFiles, "file")} and ${Math.round(maxBytes / 1024 / 1024)} MiB, nothing was written`, "source.too-big");
}

/** The first symbolic link under `root` that resolves outside it or nowhere, or null. Never follows a link. */
function linksLeaving(root: string): { path: string; code: string } | null {
  const stack = [root];
  while (stack.length) {
    const dir = stack.pop()!;
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, d.name);
      if (d.isSymbolicLink()) {
        const refused = linkEscape(root, p);
        if (refused) return { path: path.relative(root, p), code: refused.code };
      } else if (d.isDirectory()) stack.push(p);
    }
  }
  return null;
}

export function makeReadOnly(root: string): void {
  const stack = [root];
  const dirs: string[] = [];
  while (stack.length) {
    const dir = stack.pop()!;
    dirs.push(dir);
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, d.name);
      if (d.isDirectory()) stack.push(p);
      else if (d.isFile()) fs.chmodSync(p, fs.statSync(p).mode & 0o555);
    }
  }
  // Folders last, deepest first: a folder made read-only first could not have its files changed.
  for (const dir of dirs.reverse()) fs.chmodSync(dir, 0o555);
}

/** Removes a checkout (read-only folders made writable again first); a missing one is fine. */
export function removeTree(root: string): void {
  if (!fs.lstatSync(root, { throwIfNoEntry: false })) return;
  const stack = [root];
  while (stack.length) {
    const dir = stack.pop()!;
    const st = fs.lstatSync(dir);
    if (!st.isDirectory()) continue;
    fs.chmodSync(dir, 0o700);
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) if (d.isDirectory()) stack.push(path.join(dir, d.name));
  }
  fs.rmSync(root, { recursive: true, force: true });
}
