// Compares the signed checkpoints with the rows they name. A checkpoint whose row hash no longer matches
// means the chain up to that row was rewritten: with the HMAC key, since without it the chain check
// already fails. A checkpoint naming a row past the newest one means rows were removed at the end, which a
// chain alone cannot show. "Holds" is the newest checkpoint whose row still matches: everything up to it is
// as it was when it was signed.
import { eq, max, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { auditArchives, auditEvents } from "../../../db/schema/audit";
import { readCheckpointFile, readCheckpointHead } from "./checkpoints";
import { keyFingerprint, publicKeyPem, type AuditKeys } from "./keys";
import { count, plural } from "../../domain/plural";

export interface CheckpointRef {
  seq: number;
  rowId: number;
  at: string;
}

export interface CheckpointReport {
  file: string | null;
  /** Fingerprint of the public key that verifies the file. */
  key: string | null;
  total: number;
  matching: number;
  /** The newest checkpoint whose row hash still matches. */
  holds: CheckpointRef | null;
  /** The oldest checkpoint whose row no longer matches (found: the hash stored now, null when the row is gone). */
  mismatch: (CheckpointRef & { expected: string; found: string | null }) | null;
  /** Lines that cannot be trusted (bad signature, another key, removed or reordered lines, not JSON). */
  problems: string[];
  /** Rows written after the newest sound checkpoint (not yet anchored). */
  unanchored: number;
  message: string;
}

const when = (c: CheckpointRef) => `checkpoint ${c.seq} (row ${c.rowId}, ${c.at})`;

export async function checkCheckpoints(db: Db, keys: AuditKeys): Promise<CheckpointReport> {
  const headId = (await db.select({ id: max(auditEvents.id) }).from(auditEvents))[0]?.id ?? 0;
  const report: CheckpointReport = { file: keys.checkpointsFile, key: null, total: 0, matching: 0, holds: null, mismatch: null, problems: [], unanchored: headId, message: "" };
  if (!keys.publicKey || !keys.checkpointsFile) {
    report.message = "No checkpoints yet: the checkpoint key has not been created.";
    return report;
  }
  report.key = keyFingerprint(keys.publicKey);
  const entries = readCheckpointFile(keys.checkpointsFile, keys.publicKey);
  const rowHash = db.select({ hash: auditEvents.hash }).from(auditEvents).where(eq(auditEvents.id, sql.placeholder("id"))).prepare();
  const archivedHead = db.select({ hash: auditArchives.headHash }).from(auditArchives).where(eq(auditArchives.lastId, sql.placeholder("id"))).prepare();
  const archivedTo = (await db.select({ id: max(auditArchives.lastId) }).from(auditArchives))[0]?.id ?? 0;
  report.total = entries.length;
  for (const e of entries) {
    if (e.problem) {
      report.problems.push(e.problem);
      continue;
    }
    const ref = { seq: e.seq, rowId: e.rowId, at: e.at };
    let found = (await rowHash.execute({ id: e.rowId }))[0]?.hash;
    if (found === undefined && e.rowId <= archivedTo) {
      // Retention moved the row to an archive: only an archive's last row is still known here (its head).
      found = (await archivedHead.execute({ id: e.rowId }))[0]?.hash;
      if (found === undefined) {
        report.matching += 1;
        continue;
      }
    }
    if (found === e.hash) {
      report.matching += 1;
      if (!report.holds || e.rowId >= report.holds.rowId) report.holds = ref;
    } else if (!report.mismatch || e.rowId < report.mismatch.rowId) {
      report.mismatch = { ...ref, expected: e.hash, found: found ?? null };
    }
  }
  // Lines cut from the end (or the whole file deleted) leave no trace in the file: the recorded head does.
  const recorded = readCheckpointHead(keys.checkpointHeadFile);
  const lastSeq = entries.reduce((m, e) => Math.max(m, e.seq), 0);
  if (recorded && recorded.seq > lastSeq) {
    const a = lastSeq + 1;
    report.problems.push(`${a === recorded.seq ? `checkpoint ${a} is` : `checkpoints ${a}–${recorded.seq} are`} missing from the end of the file (${recorded.seq} were written)`);
  }
  report.unanchored = Math.max(0, headId - (report.holds?.rowId ?? 0));
  const holds = report.holds ? `${when(report.holds)[0]!.toUpperCase()}${when(report.holds).slice(1)} still holds.` : "No checkpoint still holds.";
  if (report.problems.length) {
    report.message = `The checkpoint file was altered: ${report.problems.slice(0, 3).join("; ")}${report.problems.length > 3 ? ` (and ${report.problems.length - 3} more)` : ""}. ${holds}`;
  } else if (report.mismatch) {
    const m = report.mismatch;
    report.message =
      m.found === null
        ? m.rowId > headId
          ? `Rows after ${headId} were removed: ${when(m)} names row ${m.rowId}, which is gone. ${holds}`
          : `Row ${m.rowId}, named by ${when(m)}, was deleted. ${holds}`
        : `${when(m)[0]!.toUpperCase()}${when(m).slice(1)} no longer matches: the chain up to row ${m.rowId} was rewritten and re-hashed with the key (only the signed checkpoint shows it). ${holds}`;
  } else if (report.total === 0) {
    report.message = "No checkpoints yet.";
  } else {
    report.message = `${count(report.total, "signed checkpoint")}, all matching. ${holds}${report.unanchored ? ` ${count(report.unanchored, "newer row")} ${plural(report.unanchored, "is", "are")} not checkpointed yet.` : ""}`;
  }
  return report;
}

/** What an admin needs to publish the checkpoints: the public key, its fingerprint, and how many lines there are. */
export function checkpointKeyInfo(keys: AuditKeys): { key: string | null; publicKeyPem: string | null; count: number; newest: CheckpointRef | null } {
  if (!keys.publicKey || !keys.checkpointsFile) return { key: null, publicKeyPem: null, count: 0, newest: null };
  const entries = readCheckpointFile(keys.checkpointsFile, keys.publicKey);
  const last = entries.at(-1);
  return {
    key: keyFingerprint(keys.publicKey),
    publicKeyPem: publicKeyPem(keys.publicKey),
    count: entries.length,
    newest: last ? { seq: last.seq, rowId: last.rowId, at: last.at } : null,
  };
}
