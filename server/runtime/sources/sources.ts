// Git sources of skills: add, update (to the ref's head or a chosen commit), roll back, remove, list. A source
// serves its pinned commit until one of these changes it; each change is audited with both commits and the URL
// as it may be shown.
import fs from "node:fs";
import path from "node:path";
import type { AuditActor, AuditSink } from "../audit/events";
import { pluginsDir } from "../registry/layers";
import { SOURCE_LIMITS } from "../../domain/limits";
import { checkOut, commitsBehind, fetchRef, isAncestor, removeTree, SourceError, type GitPlace, type SourceBounds } from "./checkout";
import { layoutOf } from "./layout";
import { withSourcesLock } from "./lock";
import { fetchUrlOf, readSources, sourcesDir, writeSecretUrl, writeSources, type SourceLayer, type SourceRecord } from "./state";
import { checkSourceUrl, redactUrl, SourceUrlError } from "./url";

export { SourceError } from "./checkout";

export interface SourceContext {
  home: string;
  audit?: AuditSink;
  actor?: AuditActor;
  bounds?: Partial<SourceBounds>;
  /** The caller's environment (gitEnv takes PATH, proxies and the ssh agent's socket from it). */
  env?: Record<string, string | undefined>;
  now?: () => Date;
}

export interface AddSource {
  name: string;
  url: string;
  ref?: string;
  path?: string;
  layer?: SourceLayer;
}

const SOURCE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const REF = /^(?!-)(?!.*\.\.)[A-Za-z0-9._/@+-]{1,200}$/;

export function placeOf(ctx: SourceContext, name: string): GitPlace {
  return { home: ctx.home, name, bounds: { ...SOURCE_LIMITS, ...ctx.bounds }, callerEnv: ctx.env };
}

export function findSource(ctx: SourceContext, name: string): { all: SourceRecord[]; rec: SourceRecord } {
  const all = readSources(ctx.home);
  const rec = all.find((r) => r.name === name);
  if (!rec) throw new SourceError(`no source named "${name}"${all.length ? ` (there are: ${all.map((r) => r.name).join(", ")})` : ""}`, "source.not-found");
  return { all, rec };
}

export function auditSource(ctx: SourceContext, type: "source_added" | "source_updated" | "source_update_proposed" | "source_rolled_back" | "source_removed", rec: SourceRecord, from: string | null, to: string | null, more: Record<string, unknown> = {}): void {
  ctx.audit?.record({
    type,
    actor: ctx.actor ?? { id: "cli" },
    layer: rec.layer,
    outcome: "ok",
    details: { source: rec.name, url: rec.url, ref: rec.ref, path: rec.path, from, to, ...more },
  });
}

/** Fetches the ref, lays out its commit, records the source pinned to it. */
export function addSource(ctx: SourceContext, req: AddSource): Promise<SourceRecord> {
  return withSourcesLock(ctx.home, () => add(ctx, req));
}

async function add(ctx: SourceContext, req: AddSource): Promise<SourceRecord> {
  const { name } = req;
  // No dots: a name is a folder beside sources.json, and a plugin's name in Claude Code's marketplaces.
  if (!SOURCE_NAME.test(name)) throw new SourceError(`"${name}" is not a usable source name: letters, digits, dash or underscore (up to 64)`, "source.bad-name");
  try {
    checkSourceUrl(req.url);
  } catch (e) {
    if (e instanceof SourceUrlError) throw new SourceError(e.message, e.code);
    throw e;
  }
  const ref = req.ref ?? "HEAD";
  if (!REF.test(ref)) throw new SourceError(`--ref "${ref}" is not a branch, tag or commit name`, "source.bad-ref");
  const sub = normalSubPath(req.path ?? "");
  const layer = req.layer ?? "enterprise";
  const all = readSources(ctx.home);
  if (all.some((r) => r.name === name)) throw new SourceError(`a source named "${name}" exists already (source update or source remove it)`, "source.exists");
  if (layer === "plugin" && fs.existsSync(path.join(pluginsDir({ home: ctx.home, projectRoot: ctx.home }), name))) {
    throw new SourceError(`a plugin named "${name}" is installed already; give the source another name`, "source.exists");
  }
  const place = placeOf(ctx, name);
  const shown = redactUrl(req.url);
  const now = (ctx.now ?? (() => new Date()))().toISOString();
  try {
    const commit = await fetchRef(place, req.url, ref);
    const checkout = await checkOut(place, commit, sub);
    const rec: SourceRecord = { name, url: shown, ref, path: sub, layer, commit, addedAt: now, updatedAt: now, roots: [] };
    rec.roots = layoutOf(ctx.home, rec, checkout);
    writeSecretUrl(ctx.home, name, shown === req.url ? null : req.url);
    writeSources(ctx.home, [...all, rec]);
    auditSource(ctx, "source_added", rec, null, commit);
    return rec;
  } catch (e) {
    // Nothing of a failed add stays: no cache, no checkout, no secret.
    removeTree(path.join(sourcesDir(ctx.home), name));
    throw e;
  }
}

export interface UpdateOutcome {
  record: SourceRecord;
  from: string;
  to: string;
  /** The new commit does not have the old one in its history (a force-push, or --to an older commit). */
  rewound: boolean;
}

/** Pins the source to the ref's head now (or `to`). A head that dropped the pinned commit needs `force`. */
export function updateSource(ctx: SourceContext, name: string, opts: { to?: string; force?: boolean } = {}): Promise<UpdateOutcome> {
  return withSourcesLock(ctx.home, () => update(ctx, name, opts));
}

async function update(ctx: SourceContext, name: string, opts: { to?: string; force?: boolean }): Promise<UpdateOutcome> {
  const { all, rec } = findSource(ctx, name);
  const { to, rewound } = await updateTarget(ctx, rec, opts);
  if (to === rec.commit) return { record: rec, from: rec.commit, to, rewound: false };
  return { record: await repin(ctx, all, rec, to, "source_updated", { rewound }), from: rec.commit, to, rewound };
}

/**
 * The commit an update would pin (the ref's head, or `to` fetched), and whether it drops the pinned one from its
 * history. A head that was force-pushed is refused unless `force`. The caller holds the sources lock.
 */
export async function updateTarget(ctx: SourceContext, rec: SourceRecord, opts: { to?: string; force?: boolean }): Promise<{ to: string; rewound: boolean }> {
  const place = placeOf(ctx, rec.name);
  const url = fetchUrlOf(ctx.home, rec);
  if (opts.to !== undefined && !/^[0-9a-f]{40}$/i.test(opts.to)) throw new SourceError(`--to takes a full commit id (40 hex digits), not "${opts.to}"`, "source.bad-ref");
  const to = opts.to ? await fetchRef(place, url, opts.to.toLowerCase()) : (await commitsBehind(place, url, rec.ref, rec.commit)).head;
  if (to === rec.commit) return { to, rewound: false };
  const rewound = !(await isAncestor(place, rec.commit, to));
  if (rewound && !opts.to && !opts.force) {
    throw new SourceError(
      `${rec.ref} of ${rec.url} no longer contains the pinned commit ${rec.commit.slice(0, 12)} (it was force-pushed); nothing changed. Run source update ${rec.name} --force to pin ${to.slice(0, 12)} anyway`,
      "source.force-pushed",
    );
  }
  return { to, rewound };
}

/** Pins the source back to the commit it had before its last change. */
export function rollbackSource(ctx: SourceContext, name: string): Promise<UpdateOutcome> {
  return withSourcesLock(ctx.home, async () => {
    const { all, rec } = findSource(ctx, name);
    if (!rec.previous) throw new SourceError(`source "${name}" has no earlier commit to roll back to`, "source.no-previous");
    const to = rec.previous;
    return { record: await repin(ctx, all, rec, to, "source_rolled_back"), from: rec.commit, to, rewound: true };
  });
}

async function repin(ctx: SourceContext, all: SourceRecord[], rec: SourceRecord, to: string, type: "source_updated" | "source_rolled_back", more: Record<string, unknown> = {}): Promise<SourceRecord> {
  const place = placeOf(ctx, rec.name);
  const checkout = await checkOut(place, to, rec.path);
  const next: SourceRecord = { ...rec, commit: to, previous: rec.commit, updatedAt: (ctx.now ?? (() => new Date()))().toISOString() };
  next.roots = layoutOf(ctx.home, next, checkout);
  writeSources(ctx.home, all.map((r) => (r.name === rec.name ? next : r)));
  pruneCheckouts(ctx.home, next);
  auditSource(ctx, type, next, rec.commit, to, more);
  return next;
}

/** Keeps the pinned and the previous commit's checkouts (a rollback needs no fetch); removes older ones. */
function pruneCheckouts(home: string, rec: SourceRecord): void {
  const keep = new Set([rec.commit, rec.previous, "cache.git"].filter(Boolean).flatMap((c) => [c!, `${c}.plugins`]));
  const dir = path.join(sourcesDir(home), rec.name);
  for (const entry of fs.readdirSync(dir)) if (!keep.has(entry)) removeTree(path.join(dir, entry));
}

/** Forgets the source: its skills leave their layer, its checkouts, cache and secret are deleted. */
export function removeSource(ctx: SourceContext, name: string): Promise<SourceRecord> {
  return withSourcesLock(ctx.home, async () => {
    const { all, rec } = findSource(ctx, name);
    writeSources(ctx.home, all.filter((r) => r.name !== name));
    removeTree(path.join(sourcesDir(ctx.home), name));
    writeSecretUrl(ctx.home, name, null);
    auditSource(ctx, "source_removed", rec, rec.commit, null);
    return rec;
  });
}

export interface SourceStatus extends SourceRecord {
  /** Skill folders (with a SKILL.md) the pinned commit gives. */
  skills: number;
  /** Commits the pinned one is behind its ref's head; null when the head no longer contains it; undefined unchecked. */
  behind?: number | null;
  head?: string;
  /** Why the remote could not be asked (unreachable, timed out). */
  remoteError?: string;
}

/** The sources, each with its skill count and, when `remote`, how far behind its ref it is. */
export async function listSources(ctx: SourceContext, opts: { remote?: boolean } = {}): Promise<SourceStatus[]> {
  const out: SourceStatus[] = [];
  for (const rec of readSources(ctx.home)) {
    const status: SourceStatus = { ...rec, skills: countSkills(ctx.home, rec) };
    if (opts.remote) {
      try {
        const { head, behind } = await commitsBehind(placeOf(ctx, rec.name), fetchUrlOf(ctx.home, rec), rec.ref, rec.commit);
        Object.assign(status, { head, behind });
      } catch (e) {
        status.remoteError = (e as Error).message;
      }
    }
    out.push(status);
  }
  return out;
}

function countSkills(home: string, rec: SourceRecord): number {
  let n = 0;
  for (const r of rec.roots ?? []) {
    const dir = path.join(sourcesDir(home), rec.name, r.dir);
    try {
      for (const d of fs.readdirSync(dir, { withFileTypes: true })) if (d.isDirectory() && fs.existsSync(path.join(dir, d.name, "SKILL.md"))) n++;
    } catch {
      // a root the commit lacks gives no skills
    }
  }
  return n;
}

/** "skills/", "./skills" and "skills" are one sub-path; one that climbs out or is absolute is refused. */
function normalSubPath(p: string): string {
  const norm = path.posix.normalize(p.replace(/\\/g, "/")).replace(/^\.\/?/, "").replace(/\/+$/, "");
  if (norm === "" || norm === ".") return "";
  if (norm.startsWith("/") || norm === ".." || norm.startsWith("../")) throw new SourceError(`--path "${p}" must be a folder inside the repository`, "source.bad-path");
  return norm;
}
