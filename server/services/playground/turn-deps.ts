// What a turn needs from the console (database, data home, audit, sandbox runner): its own module, since the
// turns, the worker pool and the listing preview all take it and none of them should import another for a type.
import type { Db } from "../../../db/client";
import type { DataHome } from "../../config";
import type { AuditSink } from "../../runtime/audit/events";
import type { SharedRunner } from "./sandbox";

export interface TurnDeps {
  db: Db;
  dataHome: DataHome;
  audit: AuditSink;
  /** The script runner; the process-wide sandbox for the data home's scratch root by default. */
  runner?: SharedRunner;
  env?: Record<string, string | undefined>;
  stepLimit?: number;
}
