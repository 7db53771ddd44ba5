// The source filter and the events-by-source breakdown over a real SQLite file: the console's own rows (its
// playground's turns apart from the rest) vs rows agents reported, with how many machines each agent reported from.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { auditFilterSchema } from "./filter";
import { countEvents, topSkillsByActivation } from "./queries";
import { eventsBySource } from "./sources";
import { auditSinkFor, flushAudit } from "./sink";
import { tempDb, type TempDb } from "./test-support/audit";

process.env.OMNIFORGE_AUDIT_STDOUT = "0";

let t: TempDb;
const all = { kind: "all" } as const;
beforeEach(() => {
  t = tempDb();
  const w = auditSinkFor(t.db);
  w.record({ type: "skill_activated", actor: { id: "u1" }, skill: "pdf-forms", sessionId: "play-1" });
  w.record({ type: "login", actor: { id: "u1" } });
  for (const host of ["m1", "m2", "m3"]) {
    w.record({ type: "skill_activated", actor: { id: "u1" }, skill: "release-notes", source: { agent: "claude-code", version: "2.1.130", host, user: `${host}@x.io` } });
  }
  w.record({ type: "skill_activated", actor: { id: "u1" }, skill: "release-notes", source: { agent: "codex", host: "m9" } });
  flushAudit(t.db);
});
afterEach(() => {
  auditSinkFor(t.db).close();
  t.cleanup();
});

describe("audit by source", () => {
  it("filters the console's own events and each agent's", async () => {
    const f = (source?: string) => auditFilterSchema.parse({ source });
    expect(await countEvents(t.db, f(), all)).toBe(6);
    // A login is the console's; a skill activated in a playground turn is the playground's, not both.
    expect(await countEvents(t.db, f("console"), all)).toBe(1);
    expect(await countEvents(t.db, f("playground"), all)).toBe(1);
    expect(await countEvents(t.db, f("claude-code"), all)).toBe(3);
    expect(await countEvents(t.db, f("codex"), all)).toBe(1);
    expect(() => auditFilterSchema.parse({ source: "x' OR 1=1 --" })).toThrow();
  });

  it("counts events, machines and people per source, whatever source is filtered", async () => {
    const expected = [
      { source: "claude-code", n: 3, hosts: 3, users: 3 },
      { source: "codex", n: 1, hosts: 1, users: 0 },
      { source: "console", n: 1, hosts: 0, users: 0 },
      { source: "playground", n: 1, hosts: 0, users: 0 },
    ];
    expect(await eventsBySource(t.db, auditFilterSchema.parse({}), all)).toEqual(expected);
    expect(await eventsBySource(t.db, auditFilterSchema.parse({ source: "codex" }), all)).toEqual(expected);
  });

  it("the top-skills chart counts what agents used, and can show one source alone", async () => {
    // Codex counts a skill it was asked for but could not inject as status "error": not an activation.
    auditSinkFor(t.db).record({ type: "skill_activated", actor: { id: "u1" }, skill: "pdf-forms", outcome: "failed", source: { agent: "codex", host: "m9" } });
    auditSinkFor(t.db).record({ type: "skill_activated", actor: { id: "u1" }, skill: "pdf-forms", outcome: "failed", source: { agent: "codex", host: "m9" } });
    flushAudit(t.db);
    expect(await topSkillsByActivation(t.db, auditFilterSchema.parse({}), all)).toEqual([
      { skill: "release-notes", n: 4 },
      { skill: "pdf-forms", n: 1 },
    ]);
    expect(await topSkillsByActivation(t.db, auditFilterSchema.parse({ source: "playground" }), all)).toEqual([{ skill: "pdf-forms", n: 1 }]);
    expect(await topSkillsByActivation(t.db, auditFilterSchema.parse({ source: "console" }), all)).toEqual([]);
  });
});
