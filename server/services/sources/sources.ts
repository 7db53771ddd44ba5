// The console's git sources: the same runtime calls as `omniforge source` (server/runtime/sources), for admins,
// with the console's audit and actor, errors as ServiceErrors whose messages never carry a URL's password, and
// every cached index told at once that the source's layer folders moved (the watcher does not see a new pin).
import type { DataHome } from "../../config";
import { ServiceError, type ServiceErrorCode } from "../../domain/errors";
import type { Audited } from "../../runtime/audit/events";
import { GitError } from "../../runtime/sources/git";
import { addSource, listSources, removeSource, rollbackSource, SourceError, updateSource, type AddSource, type SourceContext } from "../../runtime/sources/sources";
import { stateFile } from "../../runtime/sources/state";
import { scrubSecrets } from "../../runtime/sources/url";
import { refreshAll } from "../catalog/catalog";
import { readStoredPolicy } from "../policy/store";
import { applyIfApproved, proposeUpdate, recordProposal } from "./reviews";
import type { Db } from "../../../db/client";
import type { Approval } from "../../../db/schema";
import { processEnv } from "../../../env";

export interface SourceRow {
  name: string;
  /** Without a password (the runtime stores it so). */
  url: string;
  ref: string;
  path: string;
  layer: "enterprise" | "plugin";
  commit: string;
  previous: string | null;
  skills: number;
  /** Commits behind the ref's head; null when the ref no longer holds the pinned commit; undefined when not asked. */
  behind?: number | null;
  head: string | null;
  remoteError: string | null;
  updatedAt: string;
}

export interface SourceChange {
  name: string;
  from: string | null;
  to: string | null;
}

const CODE_OF: Record<string, ServiceErrorCode> = {
  "source.not-found": "NOT_FOUND",
  "source.exists": "CONFLICT",
  "source.force-pushed": "CONFLICT",
  "source.no-previous": "PRECONDITION_FAILED",
  "source.git-timeout": "UNAVAILABLE",
  "source.git-missing": "UNAVAILABLE",
};

function contextOf(dataHome: DataHome, by: Audited): SourceContext {
  return { home: dataHome.home, audit: by.audit, actor: by.actor, env: processEnv() };
}

/** A runtime refusal as the console shows it: a stable code in details, and no password of `url` in the words. */
async function asService<T>(url: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof SourceError || e instanceof GitError) {
      throw new ServiceError(CODE_OF[e.code] ?? "BAD_REQUEST", scrubSecrets(e.message, url), { code: e.code });
    }
    throw e;
  }
}

/** The pinned commits moved: every index reads the sources' roots again now (a path outside every root does it). */
function followSources(dataHome: DataHome): void {
  refreshAll([stateFile(dataHome.home)]);
}

export async function sourceList(dataHome: DataHome, opts: { remote: boolean }): Promise<SourceRow[]> {
  const all = await listSources({ home: dataHome.home, env: processEnv() }, { remote: opts.remote });
  return all.map((s) => ({
    name: s.name,
    url: s.url,
    ref: s.ref,
    path: s.path,
    layer: s.layer,
    commit: s.commit,
    previous: s.previous ?? null,
    skills: s.skills,
    ...(opts.remote ? { behind: s.behind ?? null } : {}),
    head: s.head ?? null,
    remoteError: s.remoteError ?? null,
    updatedAt: s.updatedAt,
  }));
}

export async function sourceAdd(dataHome: DataHome, req: AddSource, by: Audited): Promise<SourceChange> {
  const rec = await asService(req.url, () => addSource(contextOf(dataHome, by), req));
  followSources(dataHome);
  return { name: rec.name, from: null, to: rec.commit };
}

/**
 * Moves the pin now, or, with the policy's requireApprovalForSources, proposes the move: one pending approval per
 * skill it changes (`pending`), and the pin moves once they are all approved (reviews.ts). A move that changes no
 * skill is made at once.
 */
export async function sourceUpdate(db: Db, dataHome: DataHome, name: string, opts: { to?: string; force?: boolean }, by: Audited): Promise<SourceChange & { rewound: boolean; pending: number }> {
  if ((await readStoredPolicy(db)).requireApprovalForSources) {
    const p = await asService("", () => proposeUpdate(contextOf(dataHome, by), name, opts));
    if (p.from === p.to) return { name, from: p.from, to: p.to, rewound: false, pending: 0 };
    if (p.changes.length) {
      const pending = await recordProposal(db, p, by);
      // Every change of this very proposal approved already (the pin did not move then: git was unreachable): move it now.
      if (!pending) await applySourceDecision(db, dataHome, { source: name, status: "approved", fromCommit: p.from, toCommit: p.to }, by);
      return { name, from: p.from, to: p.to, rewound: p.rewound, pending };
    }
  }
  const out = await asService("", () => updateSource(contextOf(dataHome, by), name, opts));
  if (out.from !== out.to) followSources(dataHome);
  return { name, from: out.from, to: out.to, rewound: out.rewound, pending: 0 };
}

/** After an approval decision: a source update's last approved change moves the pin (and every index follows). */
export async function applySourceDecision(db: Db, dataHome: DataHome, decided: Pick<Approval, "source" | "status" | "fromCommit" | "toCommit">, by: Audited): Promise<string | null> {
  const moved = await asService("", () => applyIfApproved(db, dataHome, decided, { ...by, env: processEnv() }));
  if (moved) followSources(dataHome);
  return moved;
}

export async function sourceRollback(dataHome: DataHome, name: string, by: Audited): Promise<SourceChange> {
  const out = await asService("", () => rollbackSource(contextOf(dataHome, by), name));
  followSources(dataHome);
  return { name, from: out.from, to: out.to };
}

export async function sourceRemove(dataHome: DataHome, name: string, by: Audited): Promise<SourceChange> {
  const rec = await asService("", () => removeSource(contextOf(dataHome, by), name));
  followSources(dataHome);
  return { name, from: rec.commit, to: null };
}
