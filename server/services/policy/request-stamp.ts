// The policy as one request's session read saw it (issue #38). Every skill door read the stored policy and the
// approved digests again (three or four statements a request). Now the session's one round trip also reads the
// policy's row and a stamp of the approved set; the doors that follow in the same request take the policy from there
// and the approved rows from this server's copy when the stamp is the same. Nothing is kept across servers: a change
// on any server changes what the next session read returns, so the next request on every server sees it.
import { AsyncLocalStorage } from "node:async_hooks";
import { sql } from "drizzle-orm";
import { approvals, policySettings } from "../../../db/schema";

export const POLICY_KEY = "policy";

export interface PolicyStamp {
  /** The stored policy's JSON, or null when none was ever saved. */
  value: string | null;
  /** Changes whenever the set of approved definitions does (see approvedStamp). */
  approved: string;
}

const requests = new AsyncLocalStorage<{ stamp?: PolicyStamp }>();

/** Runs one request: the stamp its session read finds is what its later policy reads use. */
export function inRequestScope<T>(fn: () => T): T {
  return requests.run({}, fn);
}

/** The session read's stamp, kept for the rest of the request (outside a request scope, nothing is kept). */
export function noteStamp(stamp: PolicyStamp): void {
  const scope = requests.getStore();
  if (scope) scope.stamp = stamp;
}

/** The stamp of this request's session read; undefined outside a request or before the session was read. */
export function requestStamp(): PolicyStamp | undefined {
  return requests.getStore()?.stamp;
}

/**
 * Columns the session query adds (uncorrelated scalar subqueries: each database computes them once per statement).
 * The approved set is counted, its ids summed and its latest decision taken: a decision sets decided_at to its time,
 * an approval withdrawn changes the count and the sum, and rows are never otherwise edited. Concatenated as text
 * with `||`, which SQLite and PostgreSQL both read as text concatenation.
 */
export const stampColumns = {
  policyValue: sql<string | null>`(select ${policySettings.value} from ${policySettings} where ${policySettings.key} = ${POLICY_KEY})`,
  approvedStamp: sql<string>`(select count(*) || ':' || coalesce(sum(${approvals.id}), 0) || ':' || coalesce(max(${approvals.decidedAt}), 0) from ${approvals} where ${approvals.status} = 'approved' and ${approvals.source} is null)`,
};
