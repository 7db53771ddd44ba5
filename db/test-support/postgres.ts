// One throw-away PostgreSQL cluster per test file (scripts/postgres.ts), started before its tests and removed after;
// each test that asks gets a fresh, empty database in it, so tests never see each other's rows.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { startThrowawayCluster, type ThrowawayCluster } from "../../scripts/postgres";

export interface TestPostgres {
  /** The cluster's URL (its `postgres` database). */
  readonly url: string;
  /** Creates an empty database and returns its URL. */
  freshDatabase(): Promise<string>;
}

export function useTestPostgres(): TestPostgres {
  let cluster: ThrowawayCluster | null = null;
  beforeAll(async () => {
    cluster = await startThrowawayCluster();
  }, 120_000);
  afterAll(() => cluster?.stop());
  const live = () => {
    if (!cluster) throw new Error("the throw-away cluster is not started (useTestPostgres() belongs at the top of a describe)");
    return cluster;
  };
  return {
    get url() {
      return live().url;
    },
    async freshDatabase() {
      const name = `t_${randomBytes(6).toString("hex")}`;
      const client = new pg.Client({ connectionString: live().url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return live().urlFor(name);
    },
  };
}
