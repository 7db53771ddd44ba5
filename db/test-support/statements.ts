// Counts the statements a Db sends to its database, as the driver runs them: every run of a prepared statement
// counts, not only its first preparation. On SQLite, better-sqlite3's statements (run, get, all, iterate); on
// PostgreSQL, the pool's query(), which drizzle calls for every execution. A test that must show a service's
// round trips do not grow with its input counts them here, with no clock involved.
import type { Db } from "../client";
import { dbKind, postgresPool } from "../dialect";

export interface StatementCount {
  /** Statements run since counting began whose SQL matches. */
  readonly count: number;
  /** Stops counting and puts the driver back as it was. */
  stop(): void;
}

export function countStatements(db: Db, matching: RegExp): StatementCount {
  let count = 0;
  const seen = (text: unknown) => {
    if (typeof text === "string" && matching.test(text)) count++;
  };
  if (dbKind(db) === "sqlite") {
    // The methods live on the Statement prototype, shared by every statement, drizzle's prepared ones included.
    const proto = Object.getPrototypeOf(db.$client.prepare("SELECT 1")) as Record<string, (...args: unknown[]) => unknown>;
    const methods = ["run", "get", "all", "iterate"] as const;
    const originals = methods.map((m) => proto[m]!);
    methods.forEach((m, i) => {
      proto[m] = function (this: { source: string }, ...args: unknown[]) {
        seen(this.source);
        return originals[i]!.apply(this, args);
      };
    });
    return {
      get count() {
        return count;
      },
      stop: () => methods.forEach((m, i) => (proto[m] = originals[i]!)),
    };
  }
  const pool = postgresPool(db)! as unknown as { query: (...args: unknown[]) => unknown };
  const original = pool.query;
  pool.query = (...args: unknown[]) => {
    const q = args[0];
    seen(typeof q === "string" ? q : (q as { text?: unknown } | undefined)?.text);
    return original.apply(pool, args);
  };
  return {
    get count() {
      return count;
    },
    stop: () => {
      pool.query = original;
    },
  };
}
