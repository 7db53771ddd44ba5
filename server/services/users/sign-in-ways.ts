// How each console user signs in (issue #40: an admin sees whose token is whose across password and OIDC users):
// a user with an identity at the OpenID provider signs in there; anyone else with a password.
import { inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { userIdentities } from "../../../db/schema";
import type { SignInWay } from "../../domain/oidc";

/** The sign-in way of each of these users (all of them when `ids` is absent); a user not in the map signs in with a password. */
export async function signInWays(db: Db, ids?: readonly string[]): Promise<(userId: string | null) => SignInWay | null> {
  if (ids && ids.length === 0) return () => null;
  const q = db.select({ userId: userIdentities.userId, issuer: userIdentities.issuer, subject: userIdentities.subject }).from(userIdentities);
  const rows = await (ids ? q.where(inArray(userIdentities.userId, [...new Set(ids)])) : q).orderBy(userIdentities.issuer, userIdentities.subject);
  const byUser = new Map<string, SignInWay["identities"]>();
  for (const r of rows) byUser.set(r.userId, [...(byUser.get(r.userId) ?? []), { issuer: r.issuer, subject: r.subject }]);
  return (userId) => {
    if (userId === null) return null;
    const identities = byUser.get(userId) ?? [];
    return { kind: identities.length ? "oidc" : "password", identities };
  };
}
