// Test helpers: a real SQLite file in a fresh temp folder, migrations applied (used by the *.test.ts here).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb, openDb, type Db } from "../../../db/client";

export interface TempDb {
  db: Db;
  dir: string;
  file: string;
  cleanup(): void;
}

export function tempDb(): TempDb {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-audit-test-"));
  const file = path.join(dir, "audit.db");
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
