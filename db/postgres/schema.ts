// The PostgreSQL schema: each table of db/schema in its PostgreSQL form (derive.ts). Named exports one by one, because
// drizzle-kit finds the tables it generates migrations for by the module's exports; schema.test.ts fails when a
// table of db/schema has no line here.
import * as sqlite from "../schema";
import { toPostgres } from "./derive";

export const users = toPostgres(sqlite.users);
export const auditEvents = toPostgres(sqlite.auditEvents);
export const auditArchives = toPostgres(sqlite.auditArchives);
export const skillVersions = toPostgres(sqlite.skillVersions);
export const policySettings = toPostgres(sqlite.policySettings);
export const approvals = toPostgres(sqlite.approvals);
export const playgroundSessions = toPostgres(sqlite.playgroundSessions);
export const playgroundMessages = toPostgres(sqlite.playgroundMessages);
export const evalRuns = toPostgres(sqlite.evalRuns);
export const authSessions = toPostgres(sqlite.authSessions);
export const accessTokens = toPostgres(sqlite.accessTokens);
export const skillDeployments = toPostgres(sqlite.skillDeployments);
export const editorDrafts = toPostgres(sqlite.editorDrafts);
export const userIdentities = toPostgres(sqlite.userIdentities);
export const rateLimits = toPostgres(sqlite.rateLimits);
export const userTenants = toPostgres(sqlite.userTenants);
export const stopRequests = toPostgres(sqlite.stopRequests);
export const turnClaims = toPostgres(sqlite.turnClaims);
