// Debian packages the console needs beyond npm: bubblewrap (script sandbox), for the e2e suite chromium, and
// for the tests on both databases postgresql (scripts/postgres.ts). The machines run as root with apt-get; where a package is missing we install it and say so.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";

// postgresql: Debian's wrapper scripts (postgresql-common) land in /usr/bin; the server itself in /usr/lib/postgresql/<n>/bin.
const BINARIES: Record<string, string> = { bubblewrap: "/usr/bin/bwrap", chromium: "/usr/bin/chromium", postgresql: "/usr/bin/pg_ctlcluster", "nginx-light": "/usr/sbin/nginx" };

export function ensureSystemPackages(packages: string[], opts: { required: boolean }): boolean {
  const missing = packages.filter((p) => !fs.existsSync(BINARIES[p] ?? `/usr/bin/${p}`));
  if (missing.length === 0) return true;
  const isRoot = process.getuid?.() === 0;
  const hasApt = fs.existsSync("/usr/bin/apt-get");
  if (!isRoot || !hasApt) {
    const msg = `missing system packages: ${missing.join(", ")} (install them with: sudo apt-get install -y ${missing.join(" ")})`;
    if (opts.required) throw new Error(msg);
    console.warn(`[omniforge] ${msg}`);
    return false;
  }
  console.log(`[omniforge] installing missing system packages with apt-get: ${missing.join(", ")} (about a minute)...`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const update = spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  const install =
    update.status === 0
      ? spawnSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...missing], { stdio: "inherit", env })
      : update;
  const ok = install.status === 0 && missing.every((p) => fs.existsSync(BINARIES[p] ?? `/usr/bin/${p}`));
  if (!ok) {
    const msg = `could not install ${missing.join(", ")} with apt-get`;
    if (opts.required) throw new Error(msg);
    console.warn(`[omniforge] ${msg}${missing.includes("bubblewrap") ? "; script execution will be refused until bubblewrap is installed" : ""}`);
  }
  return ok;
}

export function commandExists(cmd: string): boolean {
  try {
    execFileSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
