// `npm run test:pg`: the service tests that pass on PostgreSQL, run against one throw-away cluster (vitest's global
// setup under OMNIFORGE_TEST_DATABASE=postgres; db/test-support/postgres-setup.ts). The list grows as the services
// await their queries (docs/deploy.md); a file is added once it passes on both databases. Extra arguments go to vitest.
import { spawnSync } from "node:child_process";
import path from "node:path";

const repo = path.resolve(import.meta.dirname, "..");

// Measured on this branch merged with the services' conversion (s15-a): 38 files. On this branch alone (services still
// synchronous) only the db/, audit writer, health, catalog and search files of the list pass.
export const PASSING_ON_POSTGRES = [
  "db/locks.test.ts",
  "db/transaction.test.ts",
  "server/api/trpc.test.ts",
  "server/http/catalog-matrix.test.ts",
  "server/http/catalog-route.test.ts",
  "server/cli/commands/sync.test.ts",
  "server/cli/policy-database.test.ts",
  "server/services/audit/resolve.test.ts",
  "server/services/audit/retention-job.test.ts",
  "server/services/audit/writer-servers.test.ts",
  "server/services/audit/writer.test.ts",
  "server/services/auth/login.test.ts",
  "server/services/auth/oidc.test.ts",
  "server/services/catalog/catalog.test.ts",
  "server/services/catalog/servers.test.ts",
  "server/services/catalog-api/catalog-api.test.ts",
  "server/services/doctor/problems.test.ts",
  "server/services/governance/deploy.test.ts",
  "server/services/governance/matrix-cache.test.ts",
  "server/services/governance/matrix-scale.test.ts",
  "server/services/governance/policy-change.test.ts",
  "server/services/governance/resolution.test.ts",
  "server/services/health.test.ts",
  "server/services/playground/active-skills.test.ts",
  "server/services/playground/playground.test.ts",
  "server/services/playground/skill-model.test.ts",
  "server/services/playground/skills-off.test.ts",
  "server/services/playground/turn-claims.test.ts",
  "server/services/skills/edit.test.ts",
  "server/services/skills/file-names.test.ts",
  "server/services/skills/search.test.ts",
  "server/services/skills/transfer.test.ts",
  "server/services/skills/valid-name.test.ts",
  "server/services/stops/stops.test.ts",
  "server/services/users/passwords.test.ts",
  "server/services/users/users.test.ts",
  "server/runtime/search/hybrid.test.ts",
  "server/api/routers/doctor/doctor.test.ts",
  "server/api/routers/doctor/gate.test.ts",
  "server/api/routers/layers/layers.test.ts",
  "server/api/routers/playground/playground-history.test.ts",
  "server/api/routers/tokens/tokens.test.ts",
];

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const r = spawnSync(path.join(repo, "node_modules", ".bin", "vitest"), ["run", ...PASSING_ON_POSTGRES, ...process.argv.slice(2)], {
    cwd: repo,
    stdio: "inherit",
    env: { ...process.env, OMNIFORGE_TEST_DATABASE: "postgres", OMNIFORGE_AUDIT_STDOUT: "0" },
  });
  process.exit(r.status ?? 1);
}
