// A real SQLite file in a fresh temp folder, with the committed migrations applied: what unit tests of
// services and routers run against.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb, openDb, type Db } from "../../db/client";

export interface TempDb {
  db: Db;
  dir: string;
  /** The database file (the audit tests reopen it to tamper with rows). */
  file: string;
  cleanup(): void;
}

export function tempDb(): TempDb {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-db-"));
  const file = path.join(dir, "console.db");
  const db = openDb(file);
  return {
    db,
    dir,
    file,
    cleanup() {
      closeDb(file);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
