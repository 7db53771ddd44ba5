// The console's catalog over HTTP (GET /api/catalog with a bearer token): the JSON listing, and the folders as a
// tar, unpacked in memory and checked against the listing's digests before anything is written.
// Every JSON answer is checked against a schema before use: a wrong address or a broken proxy answers too.
import { z } from "zod";
import { readStreamWithin } from "../bytes";
import { ArchiveError, safeEntryPath } from "../registry/archive";
import { readTar, TarFormatError, type TarEntry } from "../registry/tar";
import type { SkillFile } from "../registry/skill-files";
import { folderDigest } from "./digest";

// What server/services/catalog-api sends (fields sync does not read are not required). The ETag goes back in an
// If-None-Match header and the digest into the lock file, so both are held to their exact form.
const catalogSchema = z.object({
  etag: z.string().regex(/^[\x21\x23-\x7e]{1,200}$/, "expected an ETag (1 to 200 printable ASCII characters, no quotes)"),
  user: z.string().nullable(),
  skills: z.array(
    z.object({
      name: z.string(),
      digest: z.string().regex(/^sha256:[0-9a-f]{64}$/, 'expected "sha256:" and 64 hex digits'),
      allowedTools: z.array(z.string()).optional(),
      // A console before #39 sends none; one after sends it for skills from git sources (recorded in the lock).
      source: z
        .object({ name: z.string().max(200), url: z.string().max(2000), path: z.string().max(1000), commit: z.string().regex(/^[0-9a-f]{40,64}$/, "expected a commit id") })
        .optional(),
    }),
  ),
  skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
});

export type RemoteCatalog = z.infer<typeof catalogSchema>;

const errorBodySchema = z.object({ error: z.object({ message: z.string() }) });

export class SyncRemoteError extends Error {}

/** "missing" and "expected array, got string" rather than zod's longer "Invalid input: ..." (others stay zod's). */
function typeMessage(iss: { code?: string; expected?: unknown; input?: unknown }): string | undefined {
  if (iss.code !== "invalid_type") return undefined;
  if (iss.input === undefined) return "missing";
  return `expected ${String(iss.expected)}, got ${iss.input === null ? "null" : Array.isArray(iss.input) ? "array" : typeof iss.input}`;
}

/** `skills[0].digest` for zod's ["skills", 0, "digest"]. */
const fieldName = (at: PropertyKey[]) => at.reduce<string>((s, k) => (typeof k === "number" ? `${s}[${k}]` : s ? `${s}.${String(k)}` : String(k)), "");

const MAX_TAR_BYTES = 200 * 1024 * 1024;
/** A catalog listing of every skill with its digest: far below this; more is not a catalog. */
const MAX_CATALOG_BYTES = 32 * 1024 * 1024;
/** An error answer's JSON carries one message. */
const MAX_ERROR_BYTES = 64 * 1024;

/** How long sync waits for the console: for an answer to start, and then between two pieces of it. */
export interface RemoteOptions {
  timeoutMs?: number;
}

const DEFAULT_SYNC_TIMEOUT_MS = 30_000;

/**
 * A console that takes the connection and never answers (or stops half-way) must not keep sync waiting forever
 * (issue #35 item 9): each call is given `timeoutMs` to start answering, and its body as long between two chunks.
 */
class Watchdog {
  private readonly ctl = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  phase: "answer" | "body" = "answer";
  constructor(private readonly ms: number) {
    this.kick();
  }
  get signal(): AbortSignal {
    return this.ctl.signal;
  }
  get fired(): boolean {
    return this.ctl.signal.aborted;
  }
  readonly kick = (): void => {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.ctl.abort(), this.ms);
  };
  stop(): void {
    clearTimeout(this.timer);
  }
  /** The one line that says which wait ran out, and the setting that sets it. */
  error(url: string): SyncRemoteError {
    const s = Math.round(this.ms / 1000);
    const origin = new URL(url).origin;
    return new SyncRemoteError(
      this.phase === "answer"
        ? `${origin} did not answer within ${s} s (connect timeout; OMNIFORGE_SYNC_TIMEOUT_SECONDS sets it)`
        : `${origin} stopped sending its answer: nothing for ${s} s (read timeout; OMNIFORGE_SYNC_TIMEOUT_SECONDS sets it)`,
    );
  }
}

/** fetch under a watchdog: its body is to be read with `within`, which keeps the read timeout. */
async function timedFetch(url: string, init: RequestInit, opts: RemoteOptions, failed: (e: Error) => SyncRemoteError): Promise<{ res: Response; dog: Watchdog }> {
  const dog = new Watchdog(opts.timeoutMs ?? DEFAULT_SYNC_TIMEOUT_MS);
  try {
    const res = await fetch(url, { ...init, signal: dog.signal });
    dog.phase = "body";
    dog.kick();
    return { res, dog };
  } catch (e) {
    dog.stop();
    throw dog.fired ? dog.error(url) : failed(e as Error);
  }
}

/** The answer's body, up to `limit` bytes (null past it), with the read timeout of its watchdog. */
async function within(res: Response, dog: Watchdog, limit: number): Promise<Uint8Array | null> {
  try {
    return await readStreamWithin(res.body, limit, dog.kick);
  } catch (e) {
    if (dog.fired) throw dog.error(res.url);
    throw e;
  } finally {
    dog.stop();
  }
}

/** The answer's body as JSON, read up to `limit` bytes; throws when it is larger or not JSON. */
async function jsonWithin(res: Response, dog: Watchdog, limit: number): Promise<unknown> {
  const bytes = await within(res, dog, limit);
  if (!bytes) throw new SyncRemoteError(`the answer is larger than ${limit} bytes`);
  return JSON.parse(new TextDecoder().decode(bytes));
}

function catalogUrl(from: string, q: { agent: string; environment?: string; format?: "tar" }): string {
  const u = new URL("/api/catalog", from.endsWith("/") ? from : from + "/");
  u.searchParams.set("agent", q.agent);
  if (q.environment) u.searchParams.set("environment", q.environment);
  if (q.format) u.searchParams.set("format", q.format);
  return u.toString();
}

const unreachable = (url: string) => (e: Error) => new SyncRemoteError(`could not reach ${new URL(url).origin}: ${e.message}`);

async function get(url: string, token: string, opts: RemoteOptions): Promise<{ res: Response; dog: Watchdog }> {
  const { res, dog } = await timedFetch(url, { headers: { authorization: `Bearer ${token}`, accept: "application/json, application/x-tar" } }, opts, unreachable(url));
  if (res.ok) return { res, dog };
  let msg = `${res.status} ${res.statusText}`;
  try {
    const body = errorBodySchema.safeParse(await jsonWithin(res, dog, MAX_ERROR_BYTES));
    if (body.success && body.data.error.message) msg = `${res.status}: ${body.data.error.message}`;
  } catch (e) {
    if (dog.fired) throw e;
    /* not JSON: the status says enough */
  }
  throw new SyncRemoteError(`the console refused: ${msg}`);
}

export async function fetchCatalog(from: string, token: string, q: { agent: string; environment?: string }, opts: RemoteOptions = {}): Promise<RemoteCatalog> {
  const url = catalogUrl(from, q);
  const { res, dog } = await get(url, token, opts);
  const notCatalog = (why: string) => new SyncRemoteError(`${new URL(url).origin} did not answer with a catalog: ${why}`);
  let body: unknown;
  try {
    body = await jsonWithin(res, dog, MAX_CATALOG_BYTES);
  } catch (e) {
    if (dog.fired) throw e;
    throw notCatalog(e instanceof SyncRemoteError ? e.message : "not JSON");
  }
  const parsed = catalogSchema.safeParse(body, { error: typeMessage });
  if (!parsed.success) {
    const { issues } = parsed.error;
    const listed = issues.slice(0, 3).map((i) => `${fieldName(i.path) || "the answer"}: ${i.message}`);
    throw notCatalog(listed.join("; ") + (issues.length > 3 ? ` (and ${issues.length - 3} more)` : ""));
  }
  // Two entries for one folder would be written twice over each other: not a catalog the console sends. Names that
  // differ only in case are one folder on macOS and Windows.
  const seen = new Map<string, string>();
  for (const [i, { name }] of parsed.data.skills.entries()) {
    const first = seen.get(name.toLowerCase());
    if (first !== undefined) throw notCatalog(`skills[${i}].name: "${name}" is listed twice${first === name ? "" : ` (as "${first}"; names that differ only in case are one folder on some systems)`}`);
    seen.set(name.toLowerCase(), name);
  }
  return parsed.data;
}

/** Every skill's files from the tar, each checked against the digest the listing announced. */
export async function fetchFolders(
  from: string,
  token: string,
  q: { agent: string; environment?: string },
  expect: Map<string, string>,
  opts: RemoteOptions = {},
): Promise<Map<string, SkillFile[]>> {
  const { res, dog } = await get(catalogUrl(from, { ...q, format: "tar" }), token, opts);
  // Counted while it arrives: an archive past the limit is cut off, not downloaded whole first.
  const buf = await within(res, dog, MAX_TAR_BYTES);
  if (!buf) throw new SyncRemoteError(`the catalog archive is larger than ${MAX_TAR_BYTES} bytes`);
  let entries: TarEntry[];
  try {
    entries = await readTar(buf, 100_000);
  } catch (e) {
    if (!(e instanceof TarFormatError)) throw e;
    throw new SyncRemoteError(`${new URL(from).origin} did not answer with a catalog archive: ${e.message}`);
  }
  const out = new Map<string, SkillFile[]>();
  for (const e of entries) {
    if (e.type !== "file") continue;
    const [name, ...rest] = e.name.split("/");
    const rel = rest.join("/");
    if (!name || !rel || rest.some((p) => p === ".." || p === "" || p === ".")) throw new SyncRemoteError(`refused an archive entry "${e.name.slice(0, 200)}"`);
    // The rule an import applies (archive.ts): no control or direction characters, which would drive the terminal
    // of whoever lists the folder (`good/\x1b]0;owned\x07evil`), forge lines, or turn a name around.
    try {
      safeEntryPath(e.name);
    } catch (err) {
      if (!(err instanceof ArchiveError)) throw err;
      throw new SyncRemoteError(`refused the catalog archive: ${err.message}`);
    }
    const list = out.get(name) ?? [];
    list.push({ path: rel, data: e.data!, executable: (e.mode & 0o111) !== 0 });
    out.set(name, list);
  }
  for (const [name, digest] of expect) {
    const got = out.get(name);
    if (!got || folderDigest(got) !== digest) throw new SyncRemoteError(`the catalog changed while syncing (${name}); run sync again`);
  }
  return out;
}

/** Tells the console what a folder now holds from it (POST /api/catalog/deployments): "where is this deployed". */
export async function reportSync(
  from: string,
  token: string,
  report: { host: string; agent: string; scope: string; skills: { name: string; digest: string }[] },
  opts: RemoteOptions = {},
): Promise<void> {
  const url = new URL("/api/catalog/deployments", from.endsWith("/") ? from : from + "/").toString();
  const init = { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(report) };
  const { res, dog } = await timedFetch(url, init, opts, (e) => new SyncRemoteError(`could not report to ${new URL(url).origin}: ${e.message}`));
  dog.stop();
  await res.body?.cancel();
  if (!res.ok) throw new SyncRemoteError(`the console did not take the report: ${res.status}`);
}

/** Whether the catalog differs from the one with this ETag (a 304 says it does not): what --watch polls with. */
export async function catalogChanged(from: string, token: string, q: { agent: string; environment?: string }, etag: string, opts: RemoteOptions = {}): Promise<boolean> {
  const url = catalogUrl(from, q);
  const { res, dog } = await timedFetch(url, { headers: { authorization: `Bearer ${token}`, "if-none-match": `"${etag}"` } }, opts, unreachable(url));
  dog.stop();
  await res.body?.cancel();
  if (res.status === 304) return false;
  if (res.ok) return true;
  throw new SyncRemoteError(`the console refused: ${res.status}`);
}
