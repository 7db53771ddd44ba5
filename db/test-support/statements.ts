// Counts the statements a Db sends to its database, as the driver runs them: every run of a prepared statement
// counts, not only its first preparation. On SQLite, better-sqlite3's statements (run, get, all, iterate); on
// PostgreSQL, the pool's query(), which drizzle calls for every execution. A test that must show a service's
// round trips do not grow with its input counts them here, with no clock involved. A plan test takes the statements
// themselves (text and values), to ask the database how it runs exactly what the service sent.
import type { Db } from "../client";
import { dbKind, postgresPool } from "../dialect";

export interface SentStatement {
  text: string;
  values: unknown[];
}

export interface StatementCount {
  /** Statements run since counting began whose SQL matches. */
  readonly count: number;
  /** Those statements, in the order they ran. */
  readonly sent: readonly SentStatement[];
  /** Stops counting and puts the driver back as it was. */
  stop(): void;
}

export function countStatements(db: Db, matching: RegExp): StatementCount {
  const sent: SentStatement[] = [];
  const seen = (text: unknown, values: unknown) => {
    if (typeof text === "string" && matching.test(text)) sent.push({ text, values: Array.isArray(values) ? values : [] });
  };
  if (dbKind(db) === "sqlite") {
    // The methods live on the Statement prototype, shared by every statement, drizzle's prepared ones included.
    const proto = Object.getPrototypeOf(db.$client.prepare("SELECT 1")) as Record<string, (...args: unknown[]) => unknown>;
    const methods = ["run", "get", "all", "iterate"] as const;
    const originals = methods.map((m) => proto[m]!);
    methods.forEach((m, i) => {
      proto[m] = function (this: { source: string }, ...args: unknown[]) {
        seen(this.source, args);
        return originals[i]!.apply(this, args);
      };
    });
    return {
      get count() {
        return sent.length;
      },
      sent,
      stop: () => methods.forEach((m, i) => (proto[m] = originals[i]!)),
    };
  }
  const pool = postgresPool(db)! as unknown as { query: (...args: unknown[]) => unknown };
  const original = pool.query;
  pool.query = (...args: unknown[]) => {
    const q = args[0];
    // drizzle passes (text or { name, text }, values); a config object may carry its values itself.
    seen(typeof q === "string" ? q : (q as { text?: unknown } | undefined)?.text, args[1] ?? (q as { values?: unknown } | undefined)?.values);
    return original.apply(pool, args);
  };
  return {
    get count() {
      return sent.length;
    },
    sent,
    stop: () => {
      pool.query = original;
    },
  };
}
