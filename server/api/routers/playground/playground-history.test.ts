import { TRPCError } from "@trpc/server";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { playgroundMessages } from "../../../../db/schema";
import type { SessionUser } from "../../../auth";
import { followTurn, listMessages, settled, warmTurnWorker, type HistoryEvent, type StreamEvent } from "../../../services/playground";
import { playgroundWorld, RELEASE_SKILL } from "../../../services/playground/test-support/playground";
import { useTestHome } from "../../../test-support/test-home";
import { callerFor } from "../../../test-support/caller";

const w = useTestHome(playgroundWorld);
const as = (role: SessionUser["role"], id = `${role}-id`): SessionUser => ({ id, email: `${id}@x.io`, name: "", role });
const code = (e: unknown) => (e instanceof TRPCError ? e.code : String(e));
const TURNS = 10;

beforeAll(() => warmTurnWorker({}), 30_000);

// The load bench's catalog size: 600 skills, so a listing describes some, names others and leaves most out.
function bigCatalog(n: number): void {
  for (let i = 0; i < n; i++) w.skill(`catalog-skill-${i}`, `description: Skill number ${i} of a large catalog about topic ${i % 37}. Use when topic ${i % 37} comes up.`, `# Skill ${i}\n`);
  // A SKILL.md of a real skill's length: the skill tool's output, shown when the person opens the call.
  w.skill("release-notes", RELEASE_SKILL.frontmatter, RELEASE_SKILL.body + STYLE, RELEASE_SKILL.files);
}
const STYLE = `\n## Style\n\n${Array.from({ length: 30 }, (_, k) => `- Rule ${k + 1}: write each change as one sentence in the past tense, naming what a user notices.`).join("\n")}\n`;

describe("playground history over a big catalog", () => {
  it("playground.get leaves each turn's listing text and names and long tool outputs out; playground.turnListing and toolOutput give them to whoever may read the session", async () => {
    bigCatalog(600);
    const alice = callerFor(w, as("author", "alice"));
    const s = await alice.playground.create({ title: "long chat" });
    for (let k = 0; k < TURNS; k++) {
      await alice.playground.send({ sessionId: s.id, request: k % 2 ? `topic ${k} comes up` : `draft the release notes (${k})` });
      for await (const _ of (await followTurn(w.db, { id: "alice", role: "author" }, s.id))) void _;
      await settled(s.id);
    }
    const stored = await listMessages(w.db, s.id);
    const storedBytes = JSON.stringify(stored).length;
    const got = await alice.playground.get({ sessionId: s.id });
    const gotBytes = JSON.stringify(got).length;
    // Measured: 276 KB stored (28 KB a turn, most of it the listings' names and text), 42 KB sent (4.2 KB a turn).
    console.log(`playground.get of ${TURNS} turns over 601 skills: ${storedBytes} bytes stored, ${gotBytes} sent`);
    expect(storedBytes / TURNS).toBeGreaterThan(15_000);
    expect(gotBytes / TURNS).toBeLessThan(5_000);

    const startOf = <E extends StreamEvent | HistoryEvent>(events: E[] | undefined) => events?.find((e) => e.type === "run_started" && e.depth === 0) as Extract<E, { type: "run_started" }>;
    const full = startOf(stored.find((m) => m.turn === 3 && m.role === "assistant")?.record?.events).listing;
    const sent = startOf(got.messages.find((m) => m.turn === 3 && m.role === "assistant")?.record?.events).listing;
    expect(full.omittedNames.length).toBeGreaterThan(400);
    expect(sent).toMatchObject({ detailsOmitted: true, total: full.total, listed: full.listed, omitted: full.omitted, strategy: full.strategy, why: full.why });
    expect(sent).toMatchObject({ describedCount: full.described.length, nameOnlyCount: full.nameOnly.length });
    expect(Object.keys(sent)).not.toEqual(expect.arrayContaining(["text"]));
    expect(JSON.stringify(got)).not.toContain("catalog-skill-599");
    // The answer is the row's content; the history does not carry it twice more.
    const first = got.messages.find((m) => m.turn === 1 && m.role === "assistant");
    expect(first?.content).toContain("I chose the skill 'release-notes'");
    expect(first?.record?.events.filter((e) => e.type === "message" || e.type === "text_delta")).toEqual([]);

    // The skill tool's output (the SKILL.md) is left out too, with its length; toolOutput gives it.
    const skillCall = (events: { type: string }[] | undefined) => events?.find((e) => e.type === "tool_result" && "tool" in e && e.tool === "skill") as unknown as { callId: string; output?: string; outputChars?: number };
    const storedCall = skillCall(stored.find((m) => m.turn === 1 && m.role === "assistant")?.record?.events);
    expect(storedCall.output).toContain("Rule 30: write each change");
    expect(skillCall(first?.record?.events)).toMatchObject({ callId: storedCall.callId, outputChars: storedCall.output!.length });
    expect(skillCall(first?.record?.events).output).toBeUndefined();
    expect(await alice.playground.toolOutput({ sessionId: s.id, turn: 1, callId: storedCall.callId })).toEqual({ output: storedCall.output });
    expect(code(await callerFor(w, as("author", "bob")).playground.toolOutput({ sessionId: s.id, turn: 1, callId: storedCall.callId }).catch((e: unknown) => e))).toBe("NOT_FOUND");
    expect(code(await alice.playground.toolOutput({ sessionId: s.id, turn: 1, callId: "no-such-call" }).catch((e: unknown) => e))).toBe("NOT_FOUND");

    const listing = await alice.playground.turnListing({ sessionId: s.id, turn: 3 });
    expect(listing).toEqual({ ...full, mode: "tool" });
    expect(listing.omittedNames).toContain("catalog-skill-599");
    expect(listing.text).toContain("catalog-skill");
    expect((await callerFor(w, as("admin")).playground.turnListing({ sessionId: s.id, turn: 3 })).omittedNames).toEqual(full.omittedNames);

    // Someone else's session: not found, as playground.get answers (no existence leak), before anything is read.
    expect(code(await callerFor(w, as("author", "bob")).playground.turnListing({ sessionId: s.id, turn: 3 }).catch((e: unknown) => e))).toBe("NOT_FOUND");
    expect(code(await callerFor(w, as("viewer", "vic")).playground.turnListing({ sessionId: s.id, turn: 3 }).catch((e: unknown) => e))).toBe("NOT_FOUND");
    expect(code(await callerFor(w, null).playground.turnListing({ sessionId: s.id, turn: 3 }).catch((e: unknown) => e))).toBe("UNAUTHORIZED");
    expect(code(await alice.playground.turnListing({ sessionId: s.id, turn: TURNS + 1 }).catch((e: unknown) => e))).toBe("NOT_FOUND");
  }, 120_000);

  it("playground.get reads each stored turn's record once, and none of a turn this server stored: later reads show the turns as first read or written", async () => {
    w.skill("release-notes", RELEASE_SKILL.frontmatter, RELEASE_SKILL.body, RELEASE_SKILL.files);
    const alice = callerFor(w, as("author", "alice"));
    const s = await alice.playground.create({ title: "kept" });
    const turn = async (request: string) => {
      await alice.playground.send({ sessionId: s.id, request });
      for await (const _ of (await followTurn(w.db, { id: "alice", role: "author" }, s.id))) void _;
      await settled(s.id);
    };
    await turn("draft the release notes");
    const first = (await alice.playground.get({ sessionId: s.id })).messages;
    expect(first.map((m) => m.role)).toEqual(["user", "assistant"]);
    // The stored records can no longer be read: a read that parsed them again would show turn 1 without its steps.
    await w.db.update(playgroundMessages).set({ events: "{ not json" }).where(eq(playgroundMessages.sessionId, s.id));
    await turn("draft them again");
    const second = (await alice.playground.get({ sessionId: s.id })).messages;
    expect(second.slice(0, 2)).toEqual(first);
    expect(second.slice(2).map((m) => [m.turn, m.role, m.record?.reason])).toEqual([
      [2, "user", undefined],
      [2, "assistant", "answered"],
    ]);
    expect(second[3]!.record!.events.some((e) => e.type === "run_started")).toBe(true);
    // A turn this server ran is kept as it stored it: the next read finds its rows without reading them.
    await turn("and once more");
    await w.db.update(playgroundMessages).set({ events: "{ not json" }).where(eq(playgroundMessages.sessionId, s.id));
    const third = (await alice.playground.get({ sessionId: s.id })).messages;
    expect(third.slice(0, 4)).toEqual(second);
    expect(third[4]).toMatchObject({ turn: 3, role: "user", content: "and once more", request: { mode: "tool" } });
    expect(third[5]!.record).toMatchObject({ reason: "answered" });
  }, 60_000);
});
