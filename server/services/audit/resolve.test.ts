import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../users/users";
import { listEvents } from "./queries";
import { resolveUserFilter } from "./resolve";
import { tempDb, type TempDb } from "./test-support/audit";
import { AuditWriter } from "./writer";

let t: TempDb;
let id = "";
beforeAll(async () => {
  t = tempDb();
  id = (await createUser(t.db, { email: "Ada@Example.com", name: "Ada", role: "author", password: "long-enough-pass" })).id;
  const w = new AuditWriter(t.db, { stdout: false });
  w.record({ type: "login", actor: { id, email: "ada@example.com" } });
  w.record({ type: "login", actor: { id: "someone-else" } });
  await w.close();
});
afterAll(() => t.cleanup());

describe("resolveUserFilter", () => {
  it("turns a known email (any case) into the user's id, and leaves ids alone", async () => {
    expect(await resolveUserFilter(t.db, { user: "ADA@example.com", type: "login" })).toEqual({ user: id, type: "login" });
    expect(await resolveUserFilter(t.db, { user: id })).toEqual({ user: id });
    expect(await resolveUserFilter(t.db, { user: "nobody@example.com" })).toEqual({ user: "nobody@example.com" });
    const f = await resolveUserFilter(t.db, { user: "ada@example.com" });
    expect((await listEvents(t.db, f, { kind: "all" })).events.map((e) => e.actorId)).toEqual([id]);
  });
});
