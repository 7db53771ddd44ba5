// People filter by what they know: an email. Events are indexed by actor id, so an email in the `user`
// filter is turned into that user's id here (an unknown email stays as it is and simply matches nothing,
// except events whose actor id is that text, such as login attempts for unknown accounts).
import type { Db } from "../../../db/client";
import { findUserByEmail } from "../users/users";
import type { AuditFilter } from "./filter";

export async function resolveUserFilter<F extends AuditFilter>(db: Db, filter: F): Promise<F> {
  if (!filter.user || !filter.user.includes("@")) return filter;
  const u = await findUserByEmail(db, filter.user);
  return u ? { ...filter, user: u.id } : filter;
}
