// Who is asking and for which agent: the index (with that user's personal layer) and the ResolveContext
// (environment, agent, tenant, effective policy) that every governance view resolves with. The layers matrix,
// the what-if, the deploy preview and the playground listing all go through the registry's resolve().
import path from "node:path";
import type { Db } from "../../../db/client";
import type { DataHome } from "../../config";
import { isSafeSegment, relativeInside, tenantView, type ResolveContext, type SkillEntry, type SkillIndex } from "../../runtime/registry";
import { visibleTenants } from "../../domain/tenants";
import { requestTenant, tenantCaller } from "../tenants/gate";
import { assertUserInReach } from "../tenants/admin-reach";
import { indexFor } from "../catalog/catalog";
import { effectivePolicy } from "../policy/store";
import { GovernanceError } from "./errors";
import { configContextFor } from "../skills-config";

/** The two folders paths are shown relative to (a DataHome, or a CLI's layer config). */
export type Places = Pick<DataHome, "home" | "projectRoot">;

export interface Viewer {
  id: string;
  role: "viewer" | "author" | "admin";
  /** An access token's tenants (fixed at creation); absent: the user's own, read from the database. */
  tenants?: readonly string[];
}

export interface WhatIf {
  /** Whose personal layer; defaults to the viewer. Only admins may pick someone else. */
  userId?: string;
  environment?: string;
  agent?: string;
  tenant?: string;
}

export interface ResolutionSetup {
  index: SkillIndex;
  ctx: ResolveContext;
  userId: string;
}

const blankToUndefined = (s: string | undefined) => (s && s.trim() ? s.trim() : undefined);

export function whatIfUser(viewer: Viewer, requested: string | undefined): string {
  const userId = requested || viewer.id;
  if (!isSafeSegment(userId)) throw new GovernanceError("BAD_REQUEST", `"${userId.slice(0, 64)}" is not a user id`);
  if (userId !== viewer.id && viewer.role !== "admin") {
    throw new GovernanceError("FORBIDDEN", "only administrators can look at another user's skills; you can choose yourself");
  }
  return userId;
}

/** The index and context the runtime would use for this user and agent. */
export async function resolutionFor(db: Db, dataHome: DataHome, viewer: Viewer, w: WhatIf = {}): Promise<ResolutionSetup> {
  const userId = whatIfUser(viewer, w.userId);
  // Another user's catalog is an admin's look; a tenant admin's only at the users they manage.
  if (userId !== viewer.id) await assertUserInReach(db, viewer, userId);
  const caller = await tenantCaller(db, viewer);
  // Refused before anything is read: naming a tenant that is not the caller's tells them nothing.
  const tenant = requestTenant(caller, blankToUndefined(w.tenant));
  const index = tenantView(await indexFor(userId, dataHome), visibleTenants(caller));
  const ctx: ResolveContext = {
    environment: blankToUndefined(w.environment),
    agent: blankToUndefined(w.agent),
    tenant,
    policy: await effectivePolicy(db, { userId }),
    // config.yaml of the data home and the project, as the CLI reads them.
    ...configContextFor(dataHome.home, dataHome.projectRoot),
  };
  return { index, ctx, userId };
}

/**
 * The index as this viewer may know it: `userId`'s layers (an admin's look at another user) without the skills
 * scoped to tenants none of which is the viewer's. Every door that lists, finds or checks skills starts here or
 * at resolutionFor, so none of them can name such a skill.
 */
export async function viewerIndex(db: Db, dataHome: DataHome, viewer: Viewer, userId: string = viewer.id): Promise<SkillIndex> {
  if (userId !== viewer.id && viewer.role === "admin") await assertUserInReach(db, viewer, userId);
  return tenantView(await indexFor(userId, dataHome), visibleTenants(await tenantCaller(db, viewer)));
}

/** Every environment, agent and tenant named in some skill's scope: the values worth a what-if. */
export function scopeValues(entries: Iterable<SkillEntry>): { environments: string[]; agents: string[]; tenants: string[] } {
  const env = new Set<string>();
  const agents = new Set<string>();
  const tenants = new Set<string>();
  for (const e of entries) {
    for (const v of e.scope?.environments ?? []) env.add(v);
    for (const v of e.scope?.agents ?? []) agents.add(v);
    for (const v of e.scope?.tenants ?? []) tenants.add(v);
  }
  const sorted = (s: Set<string>) => [...s].sort();
  return { environments: sorted(env), agents: sorted(agents), tenants: sorted(tenants) };
}

/** The console user whose personal layer holds this entry (null for the shared layers and the CLI's own). */
export function ownerOf(entry: Pick<SkillEntry, "layer" | "root">, dataHome: Places): string | null {
  if (entry.layer !== "personal") return null;
  const rel = relativeInside(path.join(dataHome.home, "users"), entry.root);
  const parts = rel?.split(path.sep) ?? [];
  return parts.length === 2 && parts[1] === "skills" ? parts[0]! : null;
}

/** A path a person can read without the machine's absolute prefix. */
export function displayPath(dir: string, dataHome: Places): string {
  const inProject = relativeInside(dataHome.projectRoot, dir);
  if (inProject !== null) return `<project>/${inProject}`;
  const inHome = relativeInside(dataHome.home, dir);
  if (inHome !== null) return `<home>/${inHome}`;
  return dir;
}
