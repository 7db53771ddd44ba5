import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditScope } from "./filter";
import { csvField, EXPORT_COLUMNS, exportEvents, exportStream } from "./export";
import { listEvents } from "./queries";
import { tempDb, type TempDb } from "./test-support/audit";
import { AuditWriter } from "./writer";

let t: TempDb;
const all: AuditScope = { kind: "all" };

beforeAll(async () => {
  t = tempDb();
  const w = new AuditWriter(t.db, { stdout: false });
  for (let i = 0; i < 1_234; i++) {
    w.record({
      type: i % 3 === 0 ? "skill_activated" : "tool_call",
      at: new Date(Date.UTC(2026, 0, 1) + i * 1000),
      actor: { id: i % 2 ? "alice" : "bob", email: i === 5 ? 'odd, "quoted"\nname@example.com' : undefined },
      skill: i % 3 === 0 ? `skill-${i % 7}` : undefined,
      details: { i, note: i === 3 ? 'comma, quote " and\r\nnewline' : "plain" },
    });
  }
  await w.close();
});
afterAll(() => t.cleanup());

/** A small RFC 4180 reader, to check the export from the consumer's side. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") row.push(field), (field = "");
    else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(field), rows.push(row), (row = []), (field = ""), i++;
    } else field += ch;
  }
  return rows;
}

async function collect(it: AsyncIterable<string>): Promise<{ text: string; chunks: number }> {
  let text = "";
  let chunks = 0;
  for await (const c of it) (text += c), chunks++;
  return { text, chunks };
}

async function allRows(filter: Parameters<typeof listEvents>[1], scope: AuditScope) {
  const first = await listEvents(t.db, filter, scope, { limit: 500 });
  const rows = [...first.events];
  for (let cursor = first.nextCursor; cursor; ) {
    const p = await listEvents(t.db, filter, scope, { cursor, limit: 500 });
    rows.push(...p.events);
    cursor = p.nextCursor;
  }
  return rows;
}

describe("exportEvents", () => {
  it("JSONL has exactly the filtered rows, in the table's order, a page per chunk", async () => {
    const expected = await allRows({ type: "skill_activated" }, all);
    const { text, chunks } = await collect(exportEvents(t.db, { type: "skill_activated" }, all, "jsonl", 100));
    const lines = text.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines).toHaveLength(412);
    expect(chunks).toBe(5);
    expect(lines.map((l) => l.id)).toEqual(expected.map((e) => e.id));
    expect(lines[0]).toEqual({ ...expected[0], at: new Date(expected[0]!.at).toISOString() });
  });

  it("CSV round-trips through a CSV reader, quotes and newlines included", async () => {
    const { text } = await collect(exportEvents(t.db, {}, { kind: "own", actorId: "alice" }, "csv", 200));
    const rows = parseCsv(text);
    expect(rows[0]).toEqual([...EXPORT_COLUMNS]);
    const expected = await allRows({}, { kind: "own", actorId: "alice" });
    expect(rows.length - 1).toBe(expected.length);
    expect(rows.slice(1).map((r) => Number(r[0]))).toEqual(expected.map((e) => e.id));
    const row5 = rows.find((r) => r[0] === "6")!; // i = 5 is id 6
    expect(row5[EXPORT_COLUMNS.indexOf("actorEmail")]).toBe('odd, "quoted"\nname@example.com');
    const row3 = rows.find((r) => r[0] === "4")!; // i = 3: a note with a comma, a quote and CRLF
    expect(JSON.parse(row3[EXPORT_COLUMNS.indexOf("details")]!)).toEqual({ i: 3, note: 'comma, quote " and\r\nnewline' });
    expect(rows.find((r) => r[0] === "5")).toBeUndefined(); // i = 4 is bob's
    expect(JSON.parse(rows[1]![EXPORT_COLUMNS.indexOf("details")]!)).toEqual(expected[0]!.details);
    expect(rows.every((r) => r.length === EXPORT_COLUMNS.length)).toBe(true);
  });

  it("escapes CSV fields", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField('a "b"')).toBe('"a ""b"""');
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField("line\nbreak")).toBe('"line\nbreak"');
    expect(csvField(null)).toBe("");
    expect(csvField(12)).toBe("12");
    expect(csvField("=HYPERLINK(\"http://x\")")).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("-1+1")).toBe("'-1+1");
  });

  it("streams as a web ReadableStream", async () => {
    const res = new Response(exportStream(t.db, { type: "tool_call" }, all, "jsonl"));
    const text = await res.text();
    expect(text.trimEnd().split("\n")).toHaveLength(1_234 - 412);
  });
});
