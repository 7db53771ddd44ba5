// A query prepared once per connection. Building a drizzle query and having SQLite compile it again on every
// call was a large share of a console request's CPU; the hot paths (the session check, the policy, the list's
// last changes) keep theirs here and pass only their parameters. They run with `.execute(values)`, which
// returns a promise on SQLite and PostgreSQL alike (awaiting it costs a microtask, not a recompile).
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

/**
 * The same for a family of queries told apart by a key (a filter's shape): `build()` runs once per connection and
 * key; at most `max` are kept per connection (all dropped when full: shapes are few, and one rebuilt is cheap).
 */
export function preparedByKey<T>(max: number): (db: Db, key: string, build: () => T) => T {
  const byDb = new WeakMap<Db, Map<string, T>>();
  return (db, key, build) => {
    let byKey = byDb.get(db);
    if (!byKey) byDb.set(db, (byKey = new Map()));
    let q = byKey.get(key);
    if (q === undefined) {
      if (byKey.size >= max) byKey.clear();
      byKey.set(key, (q = build()));
    }
    return q;
  };
}
