// A throw-away PostgreSQL cluster for tests and CI: initdb and pg_ctl in a temporary folder, on a free port of
// 127.0.0.1, its socket in that folder (never /var/run), removed when stopped. Debian's `postgresql` is installed
// with apt-get when missing, as bubblewrap and chromium are. initdb refuses to run as root, so as root the folder
// belongs to the `postgres` user and every server command runs through `runuser -u postgres --`.
//
//   tsx scripts/postgres.ts -- <command...>   runs the command with DATABASE_URL set to a fresh cluster, then stops it
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { ensureSystemPackages } from "./system-deps";

const PG_ROOT = "/usr/lib/postgresql";

/** The newest installed server's bin folder (/usr/lib/postgresql/<n>/bin), or null. */
export function postgresBinDir(): string | null {
  if (!fs.existsSync(PG_ROOT)) return null;
  const versions = fs
    .readdirSync(PG_ROOT)
    .filter((v) => fs.existsSync(path.join(PG_ROOT, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(PG_ROOT, versions[0]!, "bin") : null;
}

/** The bin folder, installing Debian's postgresql first when no server is there. Throws with the reason when it cannot. */
export function ensurePostgres(): string {
  const found = postgresBinDir();
  if (found) return found;
  ensureSystemPackages(["postgresql"], { required: true });
  const installed = postgresBinDir();
  if (!installed) throw new Error(`postgresql is installed but no server is under ${PG_ROOT}/<version>/bin`);
  return installed;
}

export interface ThrowawayCluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  dir: string;
  /** A URL for another database of the same cluster. */
  urlFor(database: string): string;
  /** Stops the server and removes its folder; safe to call twice. */
  stop(): void;
  /** Stops the server and keeps its data (a database that goes away; tests of reconnecting). */
  pause(): void;
  /** Starts a paused server again on the same port. */
  resume(): void;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

const asRoot = () => process.getuid?.() === 0;

/** Runs a server binary as the cluster's owner: `postgres` when we are root (initdb refuses root), else ourselves. */
function runServerTool(bin: string, args: string[]): void {
  const [cmd, argv] = asRoot() ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
  const r = spawnSync(cmd, argv, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (r.status !== 0) throw new Error(`${path.basename(bin)} failed (exit ${r.status ?? r.signal}): ${(r.stderr || r.stdout || "").trim().slice(-2000)}`);
}

/**
 * Makes and starts a cluster; trust authentication, reachable only on 127.0.0.1 and through its own socket folder.
 * `statements` loads pg_stat_statements, so a bench can count the statements each request costs.
 */
export async function startThrowawayCluster(opts: { statements?: boolean } = {}): Promise<ThrowawayCluster> {
  const bin = ensurePostgres();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-pg-"));
  const data = path.join(dir, "data");
  if (asRoot()) execFileSync("chown", ["postgres:", dir]);
  let started = false;
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    runServerTool(path.join(bin, "initdb"), ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
    // The port is free when we ask; another process could take it before the server binds, which pg_ctl then reports.
    const port = await freePort();
    const serverOpts = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c full_page_writes=off${opts.statements ? " -c shared_preload_libraries=pg_stat_statements" : ""}`;
    const startServer = () => runServerTool(path.join(bin, "pg_ctl"), ["-D", data, "-o", serverOpts, "-l", path.join(dir, "server.log"), "-w", "-t", "60", "start"]);
    startServer();
    started = true;
    const urlFor = (database: string) => `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(database)}`;
    let stopped = false;
    let paused = false;
    return {
      url: urlFor("postgres"),
      port,
      dir,
      urlFor,
      pause() {
        runServerTool(path.join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]);
        paused = true;
      },
      resume() {
        startServer();
        paused = false;
      },
      stop() {
        if (stopped) return;
        stopped = true;
        try {
          if (!paused) runServerTool(path.join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]);
        } finally {
          remove();
        }
      },
    };
  } catch (e) {
    if (!started) remove();
    throw e;
  }
}

async function main(argv: string[]): Promise<number> {
  const cmd = argv[0] === "--" ? argv.slice(1) : argv;
  if (cmd.length === 0) {
    console.error("usage: tsx scripts/postgres.ts -- <command...>  (runs it with DATABASE_URL set to a throw-away cluster)");
    return 2;
  }
  const cluster = await startThrowawayCluster();
  console.log(`[postgres] throw-away cluster on 127.0.0.1:${cluster.port} (${cluster.dir})`);
  const stop = () => cluster.stop();
  process.on("SIGINT", () => (stop(), process.exit(130)));
  process.on("SIGTERM", () => (stop(), process.exit(143)));
  try {
    const r = spawnSync(cmd[0]!, cmd.slice(1), { stdio: "inherit", env: { ...process.env, DATABASE_URL: cluster.url } });
    return r.status ?? 1;
  } finally {
    stop();
    console.log("[postgres] cluster stopped and removed");
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: Error) => {
      console.error(`[postgres] ${e.message}`);
      process.exit(1);
    },
  );
}
