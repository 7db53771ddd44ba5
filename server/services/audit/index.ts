// The audit service: one batched, hash-chained writer per database, plus verification, retention,
// dashboard queries and export. Other code records through `auditSinkFor(db).record(event)`.
export { auditSinkFor, flushAudit } from "./sink";
export { verifyChain } from "./verify";
export {
  listEvents,
} from "./queries";
