// docs/deploy.md's team setup, as the two-server bench runs it: each step here is one step of the page, with the same
// commands (psql for the database and its role, a private data home on storage both servers reach, `npm start` for
// each server with the same DATABASE_URL and data home, a reverse proxy in front that the servers trust). On one
// machine: the "shared storage" is one folder, and the proxy is lib/proxy.ts standing in for nginx.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { postgresDb, type Db } from "../../../db/client";
import { postgresBinDir, type ThrowawayCluster } from "../../postgres";
import { freePort, startConsole } from "./console-process";
import { fixtureSkillDirs, seedSkills, seedUsers, type SeedUser } from "./load-seed";
import { startProxy, type Proxy } from "./proxy";

/** Step 1's statements, as the page gives them to psql (team-setup.test.ts holds the page to them). */
export const consoleDatabaseStatements = (password: string) => [`CREATE ROLE omniforge LOGIN PASSWORD '${password}'`, "CREATE DATABASE omniforge OWNER omniforge"];

/** Step 1: the console's role and an empty database it owns, made by the cluster's administrator with psql. */
export function createConsoleDatabase(cluster: ThrowawayCluster, password: string): string {
  const psql = path.join(postgresBinDir()!, "psql");
  execFileSync(psql, [cluster.url, "-v", "ON_ERROR_STOP=1", "-q", ...consoleDatabaseStatements(password).flatMap((q) => ["-c", q])], { stdio: "pipe" });
  return `postgres://omniforge:${encodeURIComponent(password)}@127.0.0.1:${cluster.port}/omniforge`;
}

/**
 * Step 2: the data home both servers mount (the skill folders, the audit keys and checkpoints, the archives), private
 * to the console's user; here it also gets the catalog's skills and the people who sign in (into the database).
 */
export async function sharedDataHome(skills: number, people: number, databaseUrl: string): Promise<{ home: string; users: SeedUser[] }> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-team-"));
  fs.chmodSync(home, 0o700);
  seedSkills(home, fixtureSkillDirs(), skills);
  fs.mkdirSync(path.join(home, "project"));
  return { home, users: await seedUsers(home, people, databaseUrl) };
}

export interface TeamServer {
  name: string;
  port: number;
  base: string;
  child: Awaited<ReturnType<typeof startConsole>>["child"];
  log: string[];
}

/**
 * Step 3's settings of one server: the shared database and data home, the public address (the proxy's), the proxy
 * trusted for X-Forwarded-For, the layer folders rescanned every 5 s, no demo skills; and the default sign-in limit
 * (10 a minute), which the load bench raises. team-setup.test.ts holds the page's command to these.
 */
export function teamServerSettings(team: { home: string; databaseUrl: string; publicUrl: string }, port: number): Record<string, string> {
  return {
    DATABASE_URL: team.databaseUrl,
    OMNIFORGE_HOME: team.home,
    NEXTAUTH_URL: team.publicUrl,
    OMNIFORGE_TRUSTED_PROXIES: "127.0.0.1",
    // On shared storage another server's save raises no file notification here: rescan as docs/deploy.md says.
    OMNIFORGE_INDEX_POLL_SECONDS: "5",
    OMNIFORGE_DEMO: "0",
    PORT: String(port),
    OMNIFORGE_LOGIN_LIMIT_PER_MINUTE: "10",
  };
}

// Both servers of a profiled run take the same session secret, which start.ts would otherwise read from the data home.
const profiledSecret = randomBytes(32).toString("base64url");

/**
 * Step 3: one console server, `npm start`'s script with the team's settings; with `cpuProf` (a folder), the server
 * process itself under `node --cpu-prof` instead, leaving its profile there when it stops.
 */
export async function startTeamServer(
  repo: string,
  name: string,
  port: number,
  team: { home: string; databaseUrl: string; publicUrl: string; admin: SeedUser },
  cpuProf?: string,
): Promise<TeamServer> {
  const settings = { ...teamServerSettings(team, port), ...(cpuProf ? { NEXTAUTH_SECRET: profiledSecret } : {}) };
  const { child, base, log } = await startConsole(repo, team.home, port, team.admin, cpuProf, settings);
  return { name, port, base, child, log };
}

/** Step 4: the reverse proxy in front of both, on its own port: the address people use. */
export async function proxyInFront(ports: number[]): Promise<Proxy> {
  return startProxy(ports.map((p) => `http://127.0.0.1:${p}`));
}

export { freePort };

/** A connection of the bench's own to the console's database, for what it checks afterwards. */
export function benchConnection(databaseUrl: string, home: string): Db {
  return postgresDb(databaseUrl, home);
}
