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
  },
});
