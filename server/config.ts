// Where the console keeps its data. One place so the server, the start script and the services agree.
import fs from "node:fs";
import path from "node:path";

export interface DataHome {
  home: string;
  dbFile: string;
  secretsDir: string;
  projectRoot: string;
  scratchRoot: string;
  archiveDir: string;
}

export function repoRoot(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.cwd());
}

export function resolveDataHome(env: Record<string, string | undefined> = process.env): DataHome {
  const home = path.resolve(repoRoot(), env.OMNIFORGE_HOME ?? ".omniforge-data");
  const projectRoot = env.OMNIFORGE_PROJECT_ROOT
    ? path.resolve(repoRoot(), env.OMNIFORGE_PROJECT_ROOT)
    : path.join(home, "demo-project");
  return {
    home,
    dbFile: path.join(home, "console.db"),
    secretsDir: path.join(home, "secrets"),
    projectRoot,
    scratchRoot: path.join(home, "scratch"),
    archiveDir: path.join(home, "audit-archive"),
  };
}

export function ensureDataHome(dh: DataHome): void {
  for (const dir of [
    dh.home,
    path.join(dh.home, "enterprise", "skills"),
    path.join(dh.home, "users"),
    path.join(dh.home, "plugins"),
    path.join(dh.projectRoot, ".omniforge", "skills"),
    dh.scratchRoot,
    dh.archiveDir,
  ]) {
    fs.mkdirSync(dir, { recursive: true });
  }
  fs.mkdirSync(dh.secretsDir, { recursive: true, mode: 0o700 });
}

/** Reads a secret file, or creates it with `make()` (mode 0600). Returns [value, createdNow]. */
export function readOrCreateSecret(dh: DataHome, name: string, make: () => string): [string, boolean] {
  const file = path.join(dh.secretsDir, name);
  try {
    return [fs.readFileSync(file, "utf8").trim(), false];
  } catch {
    fs.mkdirSync(dh.secretsDir, { recursive: true, mode: 0o700 });
    const value = make();
    fs.writeFileSync(file, value + "\n", { mode: 0o600, flag: "wx" });
    return [value, true];
  }
}
