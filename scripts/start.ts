// `npm start` / `npm run dev` / `npm run build`: validates the environment, prepares the data home and its
// secrets, builds when there is no production build yet, then runs Next. One clear line on a bad setting.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ensureSystemPackages } from "./system-deps";

const repo = path.resolve(import.meta.dirname, "..");
process.chdir(repo);
const mode = process.argv.includes("--dev") ? "dev" : process.argv.includes("--build-only") ? "build" : "start";

try {
  await import("../env");
} catch (e) {
  console.error(`omniforge: ${(e as Error).message}`);
  process.exit(1);
}
const { ensureDataHome, readOrCreateSecret, resolveDataHome } = await import("../server/config");

const next = path.join(repo, "node_modules", ".bin", "next");
const baseEnv: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

function build(): void {
  console.log("[omniforge] building the console (next build)...");
  const r = spawnSync(next, ["build"], { stdio: "inherit", env: { ...baseEnv, NODE_ENV: "production" } });
  if (r.status !== 0) {
    console.error("omniforge: next build failed (see above)");
    process.exit(r.status ?? 1);
  }
}

if (mode === "build") {
  build();
  process.exit(0);
}

const dh = resolveDataHome(process.env);
ensureDataHome(dh);
const port = process.env.PORT ?? "3000";
const [secret, created] = process.env.NEXTAUTH_SECRET
  ? [process.env.NEXTAUTH_SECRET, false]
  : readOrCreateSecret(dh, "nextauth-secret", () => randomBytes(32).toString("base64url"));
if (created) console.log(`[omniforge] generated NEXTAUTH_SECRET in ${path.join(dh.secretsDir, "nextauth-secret")}`);

// Scripts run under bubblewrap; without it the console works but refuses to run skill scripts.
ensureSystemPackages(["bubblewrap"], { required: false });

if (mode === "start" && !fs.existsSync(path.join(repo, ".next", "BUILD_ID"))) build();

const env: NodeJS.ProcessEnv = {
  ...baseEnv,
  OMNIFORGE_HOME: dh.home,
  NEXTAUTH_SECRET: secret,
  NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? `http://localhost:${port}`,
  PORT: port,
};
console.log(`[omniforge] data home: ${dh.home}`);
console.log(`[omniforge] console: http://localhost:${port}`);
const child = spawn(next, [mode === "dev" ? "dev" : "start", "-p", port], { stdio: "inherit", env });
for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
