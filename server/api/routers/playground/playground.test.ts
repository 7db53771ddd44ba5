import { TRPCError } from "@trpc/server";
import { beforeEach, describe, expect, it } from "vitest";
import type { SessionUser } from "../../../auth";
import { settled, type StreamItem } from "../../../services/playground";
import { NOSY_SKILL, playgroundWorld, RELEASE_SKILL } from "../../../services/playground/test-support/playground";
import { useTestHome } from "../../../test-support/test-home";
import { callerFor } from "../../../test-support/caller";

const w = useTestHome(playgroundWorld);
beforeEach(() => {
  w.skill("release-notes", RELEASE_SKILL.frontmatter, RELEASE_SKILL.body, RELEASE_SKILL.files);
  w.skill("env-inspector", NOSY_SKILL.frontmatter, NOSY_SKILL.body);
});

const as = (role: SessionUser["role"], id = `${role}-id`): SessionUser => ({ id, email: `${id}@x.io`, name: "", role });
const caller = (user: SessionUser | null) => callerFor(w, user);
const code = (e: unknown) => (e instanceof TRPCError ? e.code : String(e));

describe("playground router", () => {
  it("a viewer cannot start a session or chat (FORBIDDEN through a direct call, and logged); anonymous is UNAUTHORIZED", async () => {
    const viewer = caller(as("viewer"));
    expect(code(await viewer.playground.create({}).catch((e: unknown) => e))).toBe("FORBIDDEN");
    const s = await caller(as("author")).playground.create({ title: "author's" });
    expect(code(await viewer.playground.send({ sessionId: s.id, request: "hi" }).catch((e: unknown) => e))).toBe("FORBIDDEN");
    expect(w.audit.events.filter((e) => e.type === "access_denied").map((e) => e.details?.procedure)).toEqual(["playground.create", "playground.send"]);
    expect(await viewer.playground.list()).toEqual([]);
    expect((await viewer.playground.options()).canStart).toBe(false);
    expect(code(await caller(null).playground.list().catch((e: unknown) => e))).toBe("UNAUTHORIZED");
  });

  it("sessions are private to their owner; an admin can open one read-only", async () => {
    const a = caller(as("author", "alice"));
    const s = await a.playground.create({ title: "mine", mode: "orchestrated" });
    expect(code(await caller(as("author", "bob")).playground.get({ sessionId: s.id }).catch((e: unknown) => e))).toBe("NOT_FOUND");
    const seen = await caller(as("admin")).playground.get({ sessionId: s.id });
    expect(seen).toMatchObject({ session: { title: "mine" }, canWrite: false });
    expect(code(await caller(as("admin")).playground.send({ sessionId: s.id, request: "x" }).catch((e: unknown) => e))).toBe("FORBIDDEN");
    // A right the service refuses is audited like one the procedure refuses (one middleware for every router).
    expect(w.audit.events.filter((e) => e.type === "access_denied").at(-1)).toMatchObject({
      outcome: "refused",
      actor: { id: "admin-id" },
      details: { procedure: "playground.send", role: "admin" },
    });
    expect((await a.playground.get({ sessionId: s.id })).canWrite).toBe(true);
    expect(code(await a.playground.get({ sessionId: "../../etc" }).catch((e: unknown) => e))).toBe("BAD_REQUEST");
  });

  it("send streams the turn through the follow subscription; a second send while it runs is a CONFLICT", async () => {
    const a = caller(as("author", "alice"));
    const s = await a.playground.create({});
    const preview = await a.playground.listing({ sessionId: s.id });
    expect(preview.text).toContain('"release-notes"');
    // The baseline the listing saves: both SKILL.md files in full, more than the listing's two lines.
    expect(preview.everything).toMatchObject({ skills: 2, counted: 2 });
    expect(preview.everything.tokens).toBeGreaterThan(preview.tokens);
    expect((await a.playground.listing({ sessionId: s.id, mode: "prompt" })).text).toContain("<location>");
    await a.playground.send({ sessionId: s.id, request: "draft the release notes" });
    const conflict = await a.playground.send({ sessionId: s.id, request: "again" }).catch((e: unknown) => e);
    expect(code(conflict)).toBe("CONFLICT");
    const items: StreamItem[] = [];
    for await (const item of await a.playground.follow({ sessionId: s.id, from: 0 })) items.push(item);
    await settled(s.id);
    expect(items.map((i) => i.seq)).toEqual(items.map((_, k) => k));
    expect(items.some((i) => i.event.type === "script_run")).toBe(true);
    const got = await a.playground.get({ sessionId: s.id });
    expect(got.running).toBeNull();
    expect(got.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    await a.playground.rename({ sessionId: s.id, title: "Release notes trial" });
    expect((await a.playground.list()).map((x) => x.title)).toEqual(["Release notes trial"]);
    await a.playground.remove({ sessionId: s.id });
    expect(await a.playground.list()).toEqual([]);
  });
});

describe("playground follow", () => {
  it("refuses to stream another user's session with NOT_FOUND before any item", async () => {
    const s = await caller(as("author", "alice")).playground.create({});
    const e = await caller(as("author", "bob")).playground.follow({ sessionId: s.id, from: 0 }).catch((x: unknown) => x);
    expect(code(e)).toBe("NOT_FOUND");
  });
});
