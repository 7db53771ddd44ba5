// A query prepared once per connection. Building a drizzle query and having SQLite compile it again on every
// call was a large share of a console request's CPU; the hot paths (the session check, the policy, the list's
// last changes) keep theirs here and pass only their parameters.
import type { Db } from "./client";

/** `build(db)` runs once per connection; the getter returns its result for that connection. */
export function preparedQuery<T>(build: (db: Db) => T): (db: Db) => T {
  const byDb = new WeakMap<Db, T>();
  return (db) => {
    let q = byDb.get(db);
    if (q === undefined) byDb.set(db, (q = build(db)));
    return q;
  };
}
