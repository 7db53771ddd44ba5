// The audit service: one batched, hash-chained writer per database, plus verification, retention,
// dashboard queries and export. Other code records through `auditSinkFor(db).record(event)`.
export { auditSinkFor, flushAudit, stdoutEnabled } from "./sink";
export { AuditWriter, stdoutLine, type AuditWriterOptions, type WrittenEvent } from "./writer";
export { verifyChain, verifyChainAsync, verifyArchiveFile, verifyArchives, type VerifyResult } from "./verify";
export { archiveBefore, retentionDaysFromEnv, startRetention, type ArchiveResult } from "./retention";
export { auditFilterSchema, type AuditFilter, type AuditScope } from "./filter";
export {
  listEvents,
  countEvents,
  getEvent,
  timeSeries,
  topSkillsByActivation,
  refusalsBySkillAndTool,
  scriptRunsByExitStatus,
  violations,
} from "./queries";
export { eventsBySource, type SourceCount } from "./sources";
export { exportEvents, exportStream, type ExportFormat } from "./export";
export { resolveUserFilter } from "./resolve";
