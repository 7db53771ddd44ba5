import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname) } },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", ".next/**", "e2e/**", ".omniforge-data/**"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Sandbox and CLI tests spawn processes; two cores do not like many forks at once.
    maxWorkers: 2,
    // The CLIs the tests start keep their listing caches in a folder of this run, not in the person's ~/.cache.
    env: { OMNIFORGE_CACHE_DIR: path.join(os.tmpdir(), `omniforge-test-cache-${process.pid}`) },
    // Under OMNIFORGE_TEST_DATABASE=postgres the second starts one throw-away PostgreSQL cluster for the run.
    globalSetup: ["scripts/test-cache-dir.ts", "db/test-support/postgres-setup.ts"],
  },
});
