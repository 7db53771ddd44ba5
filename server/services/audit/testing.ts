// Test helpers: a real SQLite file in a fresh temp folder, migrations applied (used by the *.test.ts here).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { closeDb, openDb, type Db } from "../../../db/client";
import { auditEvents } from "../../../db/schema/audit";
import { ROW_FIELDS } from "./rows";
import type { StoredRow } from "./verify";

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

/** One stored row exactly as the table holds it (tests read rows to tamper with them). */
export function storedRow(db: Db, id: number): StoredRow {
  return db.select(ROW_FIELDS).from(auditEvents).where(eq(auditEvents.id, id)).get()!;
}
