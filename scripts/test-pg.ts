// `npm run test:pg`: the service tests that pass on PostgreSQL, run against one throw-away cluster (vitest's global
// setup under OMNIFORGE_TEST_DATABASE=postgres; db/test-support/postgres-setup.ts). The list grows as the services
// await their queries (docs/deploy.md); a file is added once it passes on both databases. Extra arguments go to vitest.
import { spawnSync } from "node:child_process";
import path from "node:path";

const repo = path.resolve(import.meta.dirname, "..");

const PASSING_ON_POSTGRES = [
  "db/locks.test.ts",
  "db/transaction.test.ts",
  "server/services/audit/retention-job.test.ts",
  "server/services/audit/writer-servers.test.ts",
  "server/services/audit/writer.test.ts",
  "server/services/catalog/catalog.test.ts",
  "server/services/health.test.ts",
  "server/runtime/search/accuracy-catalog.test.ts",
  "server/runtime/search/hybrid.test.ts",
];

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const r = spawnSync(path.join(repo, "node_modules", ".bin", "vitest"), ["run", ...PASSING_ON_POSTGRES, ...process.argv.slice(2)], {
    cwd: repo,
    stdio: "inherit",
    env: { ...process.env, OMNIFORGE_TEST_DATABASE: "postgres", OMNIFORGE_AUDIT_STDOUT: "0" },
  });
  process.exit(r.status ?? 1);
}
