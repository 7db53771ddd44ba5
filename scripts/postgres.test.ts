import fs from "node:fs";
import pg from "pg";
import { expect, it } from "vitest";
import { describeNeeding, postgresql } from "../server/test-support/needs";
import { startThrowawayCluster } from "./postgres";

describeNeeding(postgresql(), "throw-away PostgreSQL cluster", () => {
  it("answers on 127.0.0.1 at the URL it hands back, and leaves nothing behind once stopped", async () => {
    const cluster = await startThrowawayCluster();
    let stopped = false;
    try {
      expect(cluster.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
      const client = new pg.Client({ connectionString: cluster.url });
      await client.connect();
      const { rows } = await client.query<{ addr: string; n: number }>("SELECT host(inet_server_addr()) AS addr, 1 + 1 AS n");
      await client.end();
      expect(rows[0]).toEqual({ addr: "127.0.0.1", n: 2 });
      expect(fs.existsSync(cluster.dir)).toBe(true);
      cluster.stop();
      stopped = true;
      expect(fs.existsSync(cluster.dir)).toBe(false);
      const after = new pg.Client({ connectionString: cluster.url, connectionTimeoutMillis: 5000 });
      await expect(after.connect()).rejects.toThrow();
    } finally {
      if (!stopped) cluster.stop();
    }
  }, 120_000);
});
