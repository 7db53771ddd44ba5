import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

// e2e runs against the production build (`next start` through scripts/start.ts) on a throw-away data home.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_HOME = path.resolve(import.meta.dirname, ".omniforge-e2e", "home");
const baseURL = `http://127.0.0.1:${E2E_PORT}`;

export default defineConfig({
  testDir: "./e2e",
  testMatch: /.*\.spec\.ts$/,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"], ["json", { outputFile: path.resolve(import.meta.dirname, ".omniforge-e2e", "results.json") }]],
  use: {
    ...devices["Desktop Chrome"],
    baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  webServer: {
    command: "node_modules/.bin/tsx scripts/start.ts",
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(E2E_PORT),
      OMNIFORGE_HOME: E2E_HOME,
      NEXTAUTH_URL: baseURL,
      OMNIFORGE_LOGIN_LIMIT_PER_MINUTE: "1000",
      OMNIFORGE_AUDIT_STDOUT: "0",
      // Retention switched on (nothing is that old): the audit page shows the setting.
      OMNIFORGE_AUDIT_RETENTION_DAYS: "3650",
      NEXT_TELEMETRY_DISABLED: "1",
      // The playground e2e answers these from a scripted OpenAI-compatible server its spec starts on this port.
      OPENAI_BASE_URL: "http://127.0.0.1:3199/v1",
      OPENAI_API_KEY: "e2e-scripted-key",
      OMNIFORGE_MODEL: "scripted-e2e",
    },
  },
});
