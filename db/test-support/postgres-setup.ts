// vitest's global setup for OMNIFORGE_TEST_DATABASE=postgres: starts the run's throw-away cluster, migrates the
// template database every temp database is copied from (postgres-run.ts), and removes the cluster when the run ends.
// On SQLite (the default) it does nothing.
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startThrowawayCluster } from "../../scripts/postgres";
import { openPostgres, migratePostgres } from "../postgres/client";
import { TEMPLATE_DATABASE, testDatabaseIsPostgres } from "./postgres-run";

export default async function setup(project: TestProject): Promise<() => void> {
  project.provide("omniforgePostgresPort", 0);
  if (!testDatabaseIsPostgres()) return () => {};
  const started = Date.now();
  const cluster = await startThrowawayCluster();
  try {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
    await admin.end();
    const template = openPostgres(cluster.urlFor(TEMPLATE_DATABASE));
    await migratePostgres(template);
    await template.$client.end();
  } catch (e) {
    cluster.stop();
    throw e;
  }
  console.log(`[test:pg] throw-away cluster on 127.0.0.1:${cluster.port}, template migrated, in ${Date.now() - started} ms`);
  project.provide("omniforgePostgresPort", cluster.port);
  return () => cluster.stop();
}
