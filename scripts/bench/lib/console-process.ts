// The console as a process for the benches: a free port, its start over a data home (waiting for health), its stop,
// and the CPU time of its process group.
import { randomBytes } from "node:crypto";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { staleBuild } from "../../build-stamp";
import type { SeedUser } from "./load-seed";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * CPU time (ms) used so far by every process of the console's process group (the server, its turn worker thread
 * included). Divided by the requests it served, this is a figure the other work on a shared machine does not
 * inflate the way it inflates latencies. Linux only (/proc); null elsewhere.
 */
export function groupCpuMs(pgid: number): number | null {
  try {
    let ticks = 0;
    for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
      let stat: string;
      try {
        stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      } catch {
        continue; // ended meanwhile
      }
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // After "pid (comm) ": state ppid pgrp ... utime (14th field overall) stime (15th).
      if (Number(f[2]) === pgid) ticks += Number(f[11]) + Number(f[12]);
    }
    return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

/**
 * Starts the production console (start.ts, or serve.ts itself under --cpu-prof) on `port` over `home`, with the
 * offline provider only, and waits for its health to answer. `env` adds or overrides settings (the two-server
 * bench: DATABASE_URL, the public address, the trusted proxy, the real sign-in limit).
 */
export async function startConsole(
  repo: string,
  home: string,
  port: number,
  admin: SeedUser,
  cpuProf?: string,
  extraEnv: Record<string, string> = {},
): Promise<{ child: ChildProcess; base: string; log: string[] }> {
  const base = `http://127.0.0.1:${port}`;
  const log: string[] = [];
  // The offline provider only: no real model is called.
  const env = { ...process.env };
  for (const k of ["OPENAI_BASE_URL", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OMNIFORGE_MODEL"]) delete env[k];
  const tsx = path.join(repo, "node_modules", ".bin", "tsx");
  if (cpuProf && staleBuild(repo)) spawnSync(tsx, ["scripts/start.ts", "--build-only"], { cwd: repo, stdio: "inherit" });
  const [command, args] = cpuProf
    ? [process.execPath, ["--cpu-prof", `--cpu-prof-dir=${path.resolve(cpuProf)}`, "--import", "tsx", "scripts/serve.ts"]]
    : [tsx, ["scripts/start.ts"]];
  const child = spawn(command, args, {
    cwd: repo,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...env,
      PORT: String(port),
      OMNIFORGE_HOME: home,
      // An empty project: the catalog is exactly the seeded skills, not whatever the checkout holds.
      OMNIFORGE_PROJECT_ROOT: path.join(home, "project"),
      NEXTAUTH_URL: base,
      OMNIFORGE_DEMO: "0",
      OMNIFORGE_ADMIN_EMAIL: admin.email,
      OMNIFORGE_ADMIN_PASSWORD: admin.password,
      OMNIFORGE_LOGIN_LIMIT_PER_MINUTE: "10000",
      OMNIFORGE_AUDIT_STDOUT: "0",
      NEXT_TELEMETRY_DISABLED: "1",
      // What start.ts would otherwise set for the server it starts.
      ...(cpuProf ? { NODE_ENV: "production", NEXTAUTH_SECRET: randomBytes(32).toString("base64url") } : {}),
      ...extraEnv,
    },
  });
  for (const s of [child.stdout!, child.stderr!]) s.on("data", (d: Buffer) => log.push(d.toString()));
  const deadline = Date.now() + 600_000; // a stale build is rebuilt first
  for (;;) {
    if (child.exitCode !== null) throw new Error(`load bench: the console stopped:\n${log.join("").slice(-3000)}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stopConsole(child);
      throw new Error("load bench: the console did not start in 10 minutes");
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return { child, base, log };
}

export async function stopConsole(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  try {
    process.kill(-child.pid!, "SIGTERM");
  } catch {
    return;
  }
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null) process.kill(-child.pid!, "SIGKILL");
}
