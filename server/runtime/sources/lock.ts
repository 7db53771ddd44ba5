// One change of a data home's sources at a time: two `source update` runs at once would each write the state file
// from what they read, and each prune the other's checkout. A lock file holds the owner's pid; one left by a process
// that is gone is taken over.
import fs from "node:fs";
import path from "node:path";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../../domain/limits";
import { SourceError } from "./checkout";
import { sourcesDir } from "./state";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** Runs `work` holding <home>/sources/.lock; refuses at once (source.busy) while another live process holds it. */
export async function withSourcesLock<T>(home: string, work: () => Promise<T>): Promise<T> {
  fs.mkdirSync(home, { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.mkdirSync(sourcesDir(home), { recursive: true, mode: PRIVATE_DIR_MODE });
  const file = path.join(sourcesDir(home), ".lock");
  for (let attempt = 0; ; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx", mode: PRIVATE_FILE_MODE });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw e;
      const owner = Number.parseInt(fs.readFileSync(file, "utf8"), 10);
      if (Number.isInteger(owner) && owner > 0 && alive(owner)) {
        throw new SourceError(`another source command (process ${owner}) is changing this data home's sources; try again when it is done`, "source.busy");
      }
      fs.rmSync(file, { force: true });
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(file, { force: true });
  }
}
