// `npm start` / `npm run dev` / `npm run build`: validates the environment, prepares the data home and its
// secrets, (re)builds when there is no production build or the sources changed since it was made (a `git pull`),
// then runs Next. One clear line on a bad setting; Next's build log only when it has something to say.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { recordBuild, snapshotInputs, staleBuild } from "./build-stamp";
import { consoleAddressLine, passOutput } from "./start-output";
import { ensureSystemPackages } from "./system-deps";

const repo = path.resolve(import.meta.dirname, "..");
process.chdir(repo);
const mode = process.argv.includes("--dev") ? "dev" : process.argv.includes("--build-only") ? "build" : "start";

try {
  await import("../env");
  // The OpenID provider's settings and its discovery, before a build or a start that would only fail at sign-in.
  if (mode !== "build") await (await import("../server/services/auth/oidc-settings")).checkOidcIssuer();
} catch (e) {
  console.error(`omniforge: ${(e as Error).message}`);
  process.exit(1);
}
const { ensureDataHome, readOrCreateSecret, resolveDataHome } = await import("../server/config");

const next = path.join(repo, "node_modules", ".bin", "next");
const baseEnv: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

function build(): void {
  const inputs = snapshotInputs(repo);
  console.log("[omniforge] building the console (next build, a minute or two)...");
  const t0 = Date.now();
  const r = spawnSync(next, ["build"], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024, env: { ...baseEnv, NODE_ENV: "production" } });
  const log = `${r.stdout ?? ""}${r.stderr ?? ""}`;
  if (r.status !== 0) {
    process.stdout.write(log);
    console.error(`omniforge: next build failed (see above)${r.error ? `: ${r.error.message}` : ""}`);
    process.exit(r.status ?? 1);
  }
  // A clean build says nothing worth reading; warnings are shown, not swallowed.
  if (/warning/i.test(log)) process.stdout.write(log);
  recordBuild(repo, inputs);
  console.log(`[omniforge] console built in ${Math.round((Date.now() - t0) / 1000)} s`);
}

if (mode === "build") {
  build();
  // The CLI ships compiled too (dist/cli); bin/omniforge.mjs would rebuild it on first use otherwise.
  const { buildCliBundle } = await import("./cli-bundle.mjs");
  await buildCliBundle(repo);
  console.log("[omniforge] CLI bundled into dist/cli");
  process.exit(0);
}

function stop(problem: string): never {
  console.error(`omniforge: ${problem}`);
  process.exit(1);
}

const dataHome = resolveDataHome(process.env);
// A project named but missing is a typo: created, it would be an empty project layer (the CLI refuses it too).
const project = process.env.OMNIFORGE_PROJECT_ROOT;
if (project && !fs.statSync(dataHome.projectRoot, { throwIfNoEntry: false })?.isDirectory()) stop(`OMNIFORGE_PROJECT_ROOT=${project}: not a folder`);
let tightened: string[], secret: string, created: boolean;
try {
  tightened = ensureDataHome(dataHome);
  [secret, created] = process.env.NEXTAUTH_SECRET
    ? [process.env.NEXTAUTH_SECRET, false]
    : readOrCreateSecret(dataHome, "nextauth-secret", () => randomBytes(32).toString("base64url"));
} catch (e) {
  const where = process.env.OMNIFORGE_HOME ? `OMNIFORGE_HOME=${process.env.OMNIFORGE_HOME}` : dataHome.home;
  stop(`${where}: the data home cannot be made there (${(e as Error).message})`);
}
if (tightened.length) console.log(`[omniforge] data home ${dataHome.home} was readable by others; fixed: ${tightened.join("; ")}`);
const port = process.env.PORT ?? "3000";
if (created) console.log(`[omniforge] generated NEXTAUTH_SECRET in ${path.join(dataHome.secretsDir, "nextauth-secret")}`);

// Scripts run under bubblewrap; without it the console works but refuses to run skill scripts.
ensureSystemPackages(["bubblewrap"], { required: false });

if (mode === "start") {
  const why = staleBuild(repo);
  if (why) {
    console.log(`[omniforge] ${why}: rebuilding`);
    build();
  }
}

const env: NodeJS.ProcessEnv = {
  ...baseEnv,
  OMNIFORGE_HOME: dataHome.home,
  NEXTAUTH_SECRET: secret,
  NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? `http://localhost:${port}`,
  PORT: port,
};
console.log(`[omniforge] data home: ${dataHome.home}`);
console.log(consoleAddressLine(process.env.NEXTAUTH_URL, port));
// Next runs inside the console's own server (scripts/serve.ts), not `next start`: only there is the socket's
// peer address known, and oversized bodies refused before they are read.
const tsx = path.join(repo, "node_modules", ".bin", "tsx");
const child = spawn(tsx, ["scripts/serve.ts", ...(mode === "dev" ? ["--dev"] : [])], {
  stdio: ["inherit", "pipe", "inherit"],
  env: { ...env, NODE_ENV: mode === "dev" ? "development" : "production" },
});
passOutput(child.stdout, process.stdout);
for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
