// A real SQLite file in a fresh temp folder, with the committed migrations applied: what unit tests of
// services and routers run against.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb, openDb, type Db } from "../../db/client";

export function tempDb(): { db: Db; dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-db-"));
  const file = path.join(dir, "console.db");
  const db = openDb(file);
  return {
    db,
    dir,
    cleanup: () => {
      closeDb(file);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
