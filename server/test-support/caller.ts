// The tRPC API as the console's route handler calls it, for router tests: one signed-in user (or none) from
// 127.0.0.1 on a test home's database, data home and audit sink. Kept apart from skills-home.ts so service
// tests do not load every router.
import type { SessionUser } from "../auth";
import type { DataHome } from "../config";
import type { Db } from "../../db/client";
import type { AuditSink } from "../runtime/audit/events";
import { createCaller } from "../api/root";

export const callerFor = (home: { db: Db; dh: DataHome; audit: AuditSink }, user: SessionUser | null) =>
  createCaller({ db: home.db, dataHome: home.dh, audit: home.audit, user, ip: "127.0.0.1" });
