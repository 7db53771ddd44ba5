import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
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

  it("runs a command with DATABASE_URL set to a fresh cluster, passes its exit code on and removes the cluster", () => {
    const repo = path.resolve(import.meta.dirname, "..");
    // The child reports the URL it got and whether the server answers there, then exits 3.
    const child = `const pg = require("pg"); const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
      c.connect().then(() => c.query("SELECT current_database() AS db")).then((r) => { console.log("URL " + process.env.DATABASE_URL + " DB " + r.rows[0].db); return c.end(); }).then(() => process.exit(3));`;
    const r = spawnSync(path.join(repo, "node_modules", ".bin", "tsx"), ["scripts/postgres.ts", "--", process.execPath, "-e", child], { cwd: repo, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(3);
    expect(r.stdout).toMatch(/URL postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres DB postgres/);
    const dir = /throw-away cluster on 127\.0\.0\.1:\d+ \((\S+)\)/.exec(r.stdout)?.[1];
    expect(dir).toBeTruthy();
    expect(fs.existsSync(dir!)).toBe(false);
    expect(r.stdout).toContain("cluster stopped and removed");
  }, 120_000);
});
