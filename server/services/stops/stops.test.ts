// A Stop that lands on another console server (issue #38). Server A (this test process) runs a playground turn and a
// trigger-test run; server B is a process of its own (test-support/other-server.ts) on the same database and data
// home, with none of A's memory. B's stop must reach A's run through the database, and be audited once.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvents } from "../../../db/schema";
import { repoRoot } from "../../config";
import { useSkillsTestHome } from "../../test-support/test-home";
import { settledRun, startRun } from "../evals";
import { createSession, listMessages, settled, startTurn, stopTurn } from "../playground";
import { skillMd, writeSkillOnDisk } from "../skills/test-support/skills";
import { pollStops } from "./index";
import { useHeldModel } from "../playground/test-support/held-model";

const h = useSkillsTestHome();
const held = useHeldModel();
const alice = { id: "alice", email: "alice@x.io", role: "author" as const };

/** Server B: asks for the stop from a process of its own, as the console's Stop button would there. */
async function stopOnServerB(request: Record<string, unknown>): Promise<Record<string, unknown>> {
  const script = path.join(repoRoot(), "server", "services", "stops", "test-support", "other-server.ts");
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", script, h.url ?? h.file, h.dataHome.home, JSON.stringify(request)], { cwd: repoRoot(), timeout: 60_000 });
  return JSON.parse(stdout) as Record<string, unknown>;
}

const stopRows = () => h.db.select().from(auditEvents).where(and(eq(auditEvents.type, "stop_requested")));

describe("a stop requested on another server", () => {
  it("stops a playground turn running here: the request is a row this server finds at its next look, audited once by B", async () => {
    const env = await held.start();
    const s = await createSession(h.db, h.dataHome, alice, { provider: "openai", model: "scripted-1" }, env);
    await startTurn({ db: h.db, dataHome: h.dataHome, audit: h.audit, env }, alice, s.id, { request: "draft the notes" });

    expect(await stopOnServerB({ kind: "turn", sessionId: s.id, actor: alice })).toEqual({ stopped: true });
    await pollStops(); // what this server's timer does while a run of its own is in flight
    held.release();
    expect(await settled(s.id)).toBe(true);
    expect((await listMessages(h.db, s.id))[1]).toMatchObject({ role: "assistant", content: "(Stopped before an answer.)", record: { reason: "aborted" } });
    const rows = await stopRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorId: "alice", actorEmail: "alice@x.io" });
    expect(JSON.parse(rows[0]!.details!)).toMatchObject({ kind: "turn", sessionId: s.id, turn: 1 });
  });

  it("cancels a trigger-test run running here: the cases after the stop are not run and the run says cancelled", async () => {
    const env = await held.start();
    writeSkillOnDisk(path.join(h.dataHome.projectRoot, ".omniforge", "skills", "pdf-forms"), { "SKILL.md": skillMd("pdf-forms", "Fill PDF forms and list their fields. Use when working with PDF forms.") });
    const cases = Array.from({ length: 10 }, (_, i) => ({ query: `fill in PDF form number ${i}`, should_trigger: true }));
    const ctx = h.ctx(alice);
    const { id } = await startRun(ctx, { ref: { layer: "project", skill: "pdf-forms" }, provider: "openai", model: "scripted-1", mode: "tool", runs: 1, cases }, env);

    expect(await stopOnServerB({ kind: "eval", runId: id, actor: alice })).toEqual({ cancelled: true });
    await pollStops();
    held.release();
    const run = await settledRun(ctx, id);
    expect(run.status).toBe("cancelled");
    expect(run.results.length).toBeLessThan(cases.length);
    const rows = await stopRows();
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.details!)).toMatchObject({ kind: "eval", runId: id, skill: "pdf-forms" });
  });
});

describe("a stop asked twice", () => {
  it("is recorded once, and a turn that has ended is not stopped again", async () => {
    const env = await held.start();
    const s = await createSession(h.db, h.dataHome, alice, { provider: "openai", model: "scripted-1" }, env);
    await startTurn({ db: h.db, dataHome: h.dataHome, audit: h.audit, env }, alice, s.id, { request: "draft the notes" });
    // Two clicks at once (two tabs, or one click retried through another server): one request, one audit row.
    const both = await Promise.all([stopTurn(h, alice, s.id), stopTurn(h, alice, s.id)]);
    expect(both).toEqual([true, true]);
    held.release();
    expect(await settled(s.id)).toBe(true);
    expect(h.audit.events.filter((e) => e.type === "stop_requested")).toHaveLength(1);
    expect(await stopTurn(h, alice, s.id)).toBe(false);
    expect(h.audit.events.filter((e) => e.type === "stop_requested")).toHaveLength(1);
  });
});
