// Issue 35 item 7: verification checks every recorded archive, on a real database with the keyed chain.
// Deleting the oldest rows and recording an archive that does not exist made audit.verify say ok; so did an
// archive emptied, cut or swapped for a link, and a record leaving a gap before it.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lte } from "drizzle-orm";
import { auditArchives, auditEvents } from "../../../db/schema/audit";
import { archiveBefore } from "./retention";
import { storedRow, tempDb, type TempDb } from "./test-support/audit";
import { verifyArchives, verifyChain, verifyChainAsync } from "./verify";
import { AuditWriter } from "./writer";

let t: TempDb;
let w: AuditWriter;
const day = 86_400_000;
const base = Date.UTC(2026, 0, 1);
beforeEach(async () => {
  t = tempDb();
  w = new AuditWriter(t.db, { stdout: false });
  // Days 0..9, three events a day: rows 1-30.
  for (let d = 0; d < 10; d++) for (let k = 0; k < 3; k++) w.record({ type: "tool_call", at: new Date(base + d * day + k), details: { d, k } });
  await w.flush();
});
afterEach(async () => {
  await w.close();
  await t.cleanup();
});

const archiveDir = () => path.join(t.dir, "audit-archive");

/** What someone with the database alone can do: delete rows 1..last and record an archive for them. */
async function forgeArchive(last: number, file: string, first = 1) {
  const head = (await storedRow(t.db, last)).hash;
  await t.db.delete(auditEvents).where(lte(auditEvents.id, last));
  await t.db.insert(auditArchives).values({ firstId: first, lastId: last, count: last - first + 1, headHash: head, file, archivedAt: Date.now() });
}

describe("verification and the archives", () => {
  it("rows deleted under an archive record that names no file: not ok, and the archive is named", async () => {
    await forgeArchive(10, path.join(archiveDir(), "audit-0000000001-0000000010.jsonl"));
    const expected = { ok: false, reason: "archive missing", brokenAt: 1, message: "Archive audit-0000000001-0000000010.jsonl (rows 1-10) is missing: the rows it stands for cannot be checked." };
    expect(await verifyChain(t.db)).toMatchObject(expected);
    expect(await verifyChainAsync(t.db)).toMatchObject(expected);
  });

  it("an archive that starts after row 1 leaves rows nobody holds", async () => {
    fs.mkdirSync(archiveDir());
    const file = path.join(archiveDir(), "audit-0000000005-0000000010.jsonl");
    fs.writeFileSync(file, "");
    await forgeArchive(10, file, 5);
    expect(await verifyChain(t.db)).toMatchObject({ ok: false, reason: "archive missing", message: "Archive audit-0000000005-0000000010.jsonl starts at row 5: rows 1-4 are in no archive and not in the table." });
  });

  it("a real archive verifies; cut short, swapped for a link or moved out of the data home, it is named", async () => {
    const r = await archiveBefore(t.db, base + 4 * day, archiveDir());
    if (!r.archived) throw new Error("not archived");
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, archivedCount: 12, startId: 13 });
    const whole = fs.readFileSync(r.file, "utf8");
    const name = path.basename(r.file);

    fs.writeFileSync(r.file, whole.split("\n").slice(0, 11).join("\n") + "\n");
    expect(await verifyChain(t.db)).toMatchObject({ ok: false, reason: "missing row", message: expect.stringMatching(new RegExp(`^Archive ${name} \\(rows 1-12\\): The archive ends at a different head`)) });

    fs.writeFileSync(r.file, "null\n");
    expect(await verifyChain(t.db)).toMatchObject({ ok: false, reason: "edited", message: `Archive ${name} (rows 1-12): Line 1 of the archive is not a stored row (JSON with an id).` });

    fs.writeFileSync(r.file, "");
    expect(await verifyChain(t.db)).toMatchObject({ ok: false, message: `Archive ${name} (rows 1-12): it holds 0 rows from 0, audit_archives recorded 12 rows from 1.` });

    const copy = path.join(t.dir, "copy.jsonl");
    fs.writeFileSync(copy, whole);
    fs.rmSync(r.file);
    fs.symlinkSync(copy, r.file);
    expect(await verifyChain(t.db)).toMatchObject({ ok: false, reason: "archive missing", message: `Archive ${name} (rows 1-12) is not a regular file: the rows it stands for cannot be checked.` });

    const outside = fs.mkdtempSync(path.join(path.dirname(t.dir), "omniforge-elsewhere-"));
    try {
      fs.writeFileSync(path.join(outside, name), whole);
      await t.db.update(auditArchives).set({ file: path.join(outside, name) });
      expect(await verifyChain(t.db)).toMatchObject({ ok: false, reason: "archive missing", message: `Archive ${name} (rows 1-12) is outside the data home: the rows it stands for cannot be checked.` });
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
    expect((await verifyArchives(t.db)).map((a) => a.result.ok)).toEqual([false]);
  });
});
