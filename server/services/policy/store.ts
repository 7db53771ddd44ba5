// The governance policy, persisted as one JSON document, plus the approved digests from the approvals table.
// The registry's resolution takes the result as plain data (RegistryPolicy). effectivePolicy is the single
// source every caller uses (layers view, playground listing, deploy preview, CLI), so a block or an approval
// shows up everywhere at once.
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { preparedQuery } from "../../../db/prepared";
import { approvals, policySettings, type Approval } from "../../../db/schema";
import { approvalKey, EMPTY_POLICY, type LayerName, type RegistryPolicy } from "../../runtime/registry";
import { normalisePolicy, type StoredPolicy } from "./normalise";
import { POLICY_KEY, requestStamp } from "./request-stamp";

// Both are read for every list page and playground turn: prepared once per connection.
const policyRow = preparedQuery((db) => db.select().from(policySettings).where(eq(policySettings.key, sql.placeholder("key"))).prepare());
const approvedRows = preparedQuery((db) =>
  // A git source update's approvals (source set) bind a commit, not a definition's digest: they are not these.
  db.select().from(approvals).where(and(eq(approvals.status, "approved"), isNull(approvals.source))).orderBy(approvals.decidedAt, approvals.id).prepare(),
);

/** The stored policy: as this request's session read saw it, else read now. */
export async function readStoredPolicy(db: Db): Promise<StoredPolicy> {
  const stamp = requestStamp();
  const value = stamp ? stamp.value : ((await policyRow(db).execute({ key: POLICY_KEY }))[0]?.value ?? null);
  if (value === null) return normalisePolicy(EMPTY_POLICY);
  try {
    return normalisePolicy(JSON.parse(value) as StoredPolicy);
  } catch {
    // A corrupt row must not open everything up silently; it reads as the empty policy and the admin page shows it.
    return normalisePolicy(EMPTY_POLICY);
  }
}

/** Replaces the stored policy (the caller records the audit event). */
export async function writeStoredPolicy(db: Db, policy: StoredPolicy, updatedBy: string): Promise<void> {
  const value = JSON.stringify(normalisePolicy(policy));
  const now = Date.now();
  await db.insert(policySettings)
    .values({ key: POLICY_KEY, value, updatedBy, updatedAt: now })
    .onConflictDoUpdate({ target: policySettings.key, set: { value, updatedBy, updatedAt: now } });
}

export interface ApprovalScope {
  /**
   * The console user whose personal layer is being resolved. Personal definitions of different users share an
   * approval key ("personal:name"), so only that user's approvals count for it. Undefined: any owner's (newest).
   */
  userId?: string | null;
}

// The approved rows this server read last, per connection, with the stamp a request saw before reading them (the rows
// are at least that new). A request whose session read the same stamp uses them; any other stamp reads again.
const approvedKept = new WeakMap<Db, { stamp: string; rows: Approval[] }>();

async function approvedNow(db: Db): Promise<Approval[]> {
  const stamp = requestStamp()?.approved;
  const kept = approvedKept.get(db);
  if (stamp !== undefined && kept?.stamp === stamp) return kept.rows;
  const rows = await approvedRows(db).execute();
  if (stamp !== undefined) approvedKept.set(db, { stamp, rows });
  return rows;
}

/** approvalKey -> digest for every approved definition (the key format is the registry's approvalKey). */
export async function approvedDigests(db: Db, scope: ApprovalScope = {}): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const a of await approvedNow(db)) {
    if (a.layer === "personal" && scope.userId !== undefined && (a.ownerId ?? null) !== (scope.userId ?? null)) continue;
    const key = approvalKey({ layer: a.layer as LayerName, name: a.skill, plugin: a.plugin ?? undefined });
    // Newest decision wins when a definition was approved more than once (an edit supersedes the old approval).
    out[key] = a.digest;
  }
  return out;
}

/** The policy resolution applies: stored settings plus approvals. */
export async function effectivePolicy(db: Db, scope: ApprovalScope = {}): Promise<RegistryPolicy> {
  return { ...(await readStoredPolicy(db)), approvedDigests: await approvedDigests(db, scope) };
}
