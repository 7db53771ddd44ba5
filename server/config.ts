// Where the console keeps its data. One place so the server, the start script and the services agree.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "./domain/limits";
import { processEnv } from "../env";

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

export function resolveDataHome(env: Record<string, string | undefined> = processEnv()): DataHome {
  // || not ??: an empty variable is unset (env.ts), not "" (which would make the clone itself the data home).
  const home = path.resolve(repoRoot(), env.OMNIFORGE_HOME || ".omniforge-data");
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

/**
 * Creates the data home's folders and makes it private: the home and secrets/ 0700, the files that hold
 * password hashes, the audit and secrets 0600 (the home's own files such as console.db and its WAL, secrets/*,
 * audit-archive/*), also when an older version or a copy left them looser. Returns one line per mode it had
 * to tighten, for the log.
 */
export function ensureDataHome(dataHome: DataHome): string[] {
  fs.mkdirSync(dataHome.home, { recursive: true, mode: PRIVATE_DIR_MODE });
  for (const dir of [
    path.join(dataHome.home, "enterprise", "skills"),
    path.join(dataHome.home, "users"),
    path.join(dataHome.home, "plugins"),
    path.join(dataHome.projectRoot, ".omniforge", "skills"),
    dataHome.scratchRoot,
  ]) {
    fs.mkdirSync(dir, { recursive: true });
  }
  fs.mkdirSync(dataHome.archiveDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.mkdirSync(dataHome.secretsDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  return tightenDataHome(dataHome);
}

/** Fixes looser modes in the data home (see ensureDataHome); safe to call at every start. */
export function tightenDataHome(dataHome: DataHome): string[] {
  const notes: string[] = [];
  const tighten = (p: string, mode: number) => {
    let st: fs.Stats;
    try {
      // lstat: a link planted in the home must not make us chmod its target.
      st = fs.lstatSync(p);
    } catch {
      return;
    }
    if (st.isSymbolicLink() || (st.mode & 0o777 & ~mode) === 0) return;
    const name = path.relative(dataHome.home, p) || ".";
    const was = (st.mode & 0o777).toString(8).padStart(4, "0");
    try {
      fs.chmodSync(p, mode);
      notes.push(`${name} was ${was}, now ${mode.toString(8).padStart(4, "0")}`);
    } catch (e) {
      // Someone else's file (another owner): say so rather than refuse to start.
      notes.push(`${name} is ${was} and could not be changed (${(e as NodeJS.ErrnoException).code ?? "error"})`);
    }
  };
  tighten(dataHome.home, PRIVATE_DIR_MODE);
  // The files at the top: console.db and its WAL, the audit checkpoints, config.yaml.
  for (const e of safeReaddir(dataHome.home)) if (e.isFile()) tighten(path.join(dataHome.home, e.name), PRIVATE_FILE_MODE);
  for (const dir of [dataHome.secretsDir, dataHome.archiveDir]) {
    tighten(dir, PRIVATE_DIR_MODE);
    for (const e of safeReaddir(dir)) if (e.isFile()) tighten(path.join(dir, e.name), PRIVATE_FILE_MODE);
  }
  return notes;
}

function safeReaddir(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/**
 * Reads a secret file, or creates it with `make()` (mode 0600). Returns [value, createdNow]. Servers sharing a data
 * home may start at the same moment: the file appears whole or not at all (written aside, then linked into place, which
 * fails if it is there), and the one that finds it made meanwhile uses that value, so all agree on one secret.
 */
export function readOrCreateSecret(dataHome: DataHome, name: string, make: () => string): [string, boolean] {
  const file = path.join(dataHome.secretsDir, name);
  try {
    return [fs.readFileSync(file, "utf8").trim(), false];
  } catch {
    fs.mkdirSync(dataHome.secretsDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const value = make();
    const aside = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    fs.writeFileSync(aside, value + "\n", { mode: PRIVATE_FILE_MODE, flag: "wx" });
    try {
      fs.linkSync(aside, file);
      return [value, true];
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      return [fs.readFileSync(file, "utf8").trim(), false];
    } finally {
      fs.rmSync(aside, { force: true });
    }
  }
}
