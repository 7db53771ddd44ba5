// The catalog a token's user gets on their own machine: the SAME resolution and policy as the playground
// (resolutionFor + effectiveSkills: layers, that user's personal layer, blocked/disabled/approval/scope), each
// skill with a digest of its whole folder, and an ETag over names, digests and policy so polling is cheap.
// A machine token (no user) gets the shared layers only.
import { createHash } from "node:crypto";
import type { Db } from "../../../db/client";
import type { DataHome } from "../../config";
import { ServiceError } from "../../domain/errors";
import { effectiveSkills } from "../../runtime/agent";
import { requestTenant, tenantCaller } from "../tenants/gate";
import { isGlobalAdmin, visibleTenants } from "../../domain/tenants";
import { isSafeSegment, tenantView, layerRank, readSkillFolder, SkillCopyError, type SkillEntry, type SkillFile } from "../../runtime/registry";
import { folderDigest } from "../../runtime/sync/digest";
import { resolutionFor, type ResolutionSetup } from "../governance/context";
import { configContextFor } from "../skills-config";
import { indexFor } from "../catalog/catalog";
import { effectivePolicy } from "../policy/store";
import type { TokenPrincipal } from "../tokens";
import { sourceProvenance, type SourceProvenance } from "../../runtime/sources/roots";

export interface CatalogSkill {
  name: string;
  description: string;
  layer: string;
  plugin?: string;
  /** The git source it comes from (repository, path, pinned commit); absent for skills of a layer's own folder. */
  source?: SourceProvenance;
  /** folderDigest of every file: what `omniforge sync` compares and records. */
  digest: string;
  files: { path: string; size: number; executable: boolean }[];
  hasScripts: boolean;
  /** Our enforced allowed-tools; agents that only pre-approve cannot enforce it (sync says so). */
  allowedTools?: string[];
}

export interface Catalog {
  etag: string;
  user: string | null;
  agent: string | null;
  environment: string | null;
  skills: CatalogSkill[];
  /** Skills that resolved but could not be packaged (a link leaving the folder, too large): left out, named. */
  skipped: { name: string; reason: string }[];
}

export interface CatalogQuery {
  agent?: string;
  environment?: string;
  /** One of the token's tenants (?tenant=); another is refused. */
  tenant?: string;
}

const clean = (v: string | undefined) => (v && v.trim() ? v.trim().slice(0, 100) : undefined);

async function setupFor(db: Db, dataHome: DataHome, p: TokenPrincipal, q: CatalogQuery): Promise<ResolutionSetup> {
  const w = { agent: clean(q.agent), environment: clean(q.environment), tenant: clean(q.tenant) };
  if (p.userId) {
    // The token's tenants, fixed when it was made, and never more than its owner's now: a global admin's token
    // stops being global when its owner is given a tenant (an admin limited to tenants is global for none).
    const owner = await tenantCaller(db, { id: p.userId, role: p.role });
    const global = isGlobalAdmin(owner);
    const tenants = global ? (p.tenants ?? []) : (p.tenants ?? []).filter((t) => owner.tenants.includes(t));
    return resolutionFor(db, dataHome, { id: p.userId, role: global || p.role !== "admin" ? p.role : "author", tenants }, w);
  }
  // A machine token is no admin: it sees the scoped skills of its own tenants only.
  const caller = { role: p.role, tenants: p.tenants ?? [] };
  const tenant = requestTenant(caller, w.tenant);
  const index = tenantView(await indexFor(null, dataHome), visibleTenants(caller));
  return { index, ctx: { ...w, tenant, policy: await effectivePolicy(db, {}), ...configContextFor(dataHome.home, dataHome.projectRoot) }, userId: "" };
}

/** A name as the skipped list shows it: control characters escaped, cut short (it is any author's text). */
const shown = (name: string) => JSON.stringify(name.slice(0, 80)).slice(1, -1);

/**
 * The skills that can each be one folder on every machine (issue #35 item 8), the others added to `skipped`: a name
 * that is no folder name ("../../etc/x"), and a name that differs only in case from another one's (one folder on
 * macOS and Windows), where the layer order decides, as it does between two definitions of one name. Sync refuses
 * a whole catalog that holds either, so one author's skill would otherwise stop everyone's sync.
 */
function foldersOnly(skills: SkillEntry[], skipped: Catalog["skipped"]): SkillEntry[] {
  const winners = new Map<string, SkillEntry>();
  for (const e of [...skills].sort((a, b) => layerRank(a.layer) - layerRank(b.layer))) {
    if (!isSafeSegment(e.name)) continue;
    if (!winners.has(e.name.toLowerCase())) winners.set(e.name.toLowerCase(), e);
  }
  return skills.filter((e) => {
    if (!isSafeSegment(e.name)) {
      skipped.push({ name: shown(e.name), reason: "its name cannot be a folder name (letters, digits, dot, dash or underscore); fix the name in its SKILL.md" });
      return false;
    }
    const winner = winners.get(e.name.toLowerCase())!;
    if (winner === e) return true;
    skipped.push({
      name: e.name,
      reason: `its name differs only in case from "${winner.name}" of the ${winner.layer} layer, which comes first; the two would be one folder on macOS and Windows`,
    });
    return false;
  });
}

/** The catalog with every file's bytes (for the tar) kept beside it. */
export async function catalogWithFiles(db: Db, dataHome: DataHome, p: TokenPrincipal, q: CatalogQuery): Promise<{ catalog: Catalog; files: Map<string, SkillFile[]> }> {
  const { index, ctx } = await setupFor(db, dataHome, p, q);
  const provenance = sourceProvenance(dataHome.home);
  const skills: CatalogSkill[] = [];
  const skipped: Catalog["skipped"] = [];
  const files = new Map<string, SkillFile[]>();
  for (const e of foldersOnly(effectiveSkills({ index, context: ctx }), skipped)) {
    let read: SkillFile[];
    try {
      read = readSkillFolder(e.dir);
    } catch (err) {
      if (!(err instanceof SkillCopyError)) throw err;
      skipped.push({ name: e.name, reason: err.message });
      continue;
    }
    files.set(e.name, read);
    skills.push({
      name: e.name,
      description: e.description,
      layer: e.layer,
      ...(e.plugin ? { plugin: e.plugin } : {}),
      ...(provenance.has(e.root) ? { source: provenance.get(e.root) } : {}),
      digest: folderDigest(read),
      files: read.map((f) => ({ path: f.path, size: f.data.length, executable: f.executable })),
      hasScripts: e.hasScripts,
      ...(e.allowedTools ? { allowedTools: e.allowedTools } : {}),
    });
  }
  // The resolved list already reflects the policy; hashing the policy too means a policy edit that changes
  // nothing visible still refreshes pollers, which is cheap and never wrong.
  const etag = createHash("sha256")
    .update(JSON.stringify({ s: skills.map((s) => [s.name, s.digest]), k: skipped, p: ctx.policy ?? null, a: ctx.agent ?? null, e: ctx.environment ?? null }))
    .digest("hex")
    .slice(0, 32);
  return {
    catalog: { etag, user: p.email, agent: ctx.agent ?? null, environment: ctx.environment ?? null, skills, skipped },
    files,
  };
}

export function assertFormat(f: string | null): "json" | "tar" {
  if (f === null || f === "json") return "json";
  if (f === "tar") return "tar";
  throw new ServiceError("BAD_REQUEST", `Unknown format "${f.slice(0, 20)}": use json or tar.`);
}
