// Access tokens against a real SQLite file: shown once and stored hashed, who may make and revoke which,
// and what a bearer header gets for an unknown, expired, revoked or under-scoped token.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { accessTokens } from "../../../db/schema";
import { MemoryAuditSink } from "../../runtime/audit/events";
import { tempDb } from "../../test-support/temp-db";
import { createUser, updateUser } from "../users/users";
import { authenticateBearer, createToken, listTokens, revokeToken, type TokenCaller } from "./tokens";

let t: ReturnType<typeof tempDb>;
let audit: MemoryAuditSink;
let admin: TokenCaller;
let alice: TokenCaller;
const as = (c: TokenCaller) => ({ audit: audit, actor: { id: c.id } });

beforeEach(async () => {
  t = tempDb();
  audit = new MemoryAuditSink();
  const a = await createUser(t.db, { email: "admin@x.io", role: "admin", password: "password1" });
  const b = await createUser(t.db, { email: "alice@x.io", role: "author", password: "password1" });
  admin = { id: a.id, role: "admin" };
  alice = { id: b.id, role: "author" };
});
afterEach(() => t.cleanup());

describe("access tokens", () => {
  it("the token is shown once, recognisable, and only its hash is stored; creation is audited", async () => {
    const { token, info } = await createToken(t.db, alice, { name: "laptop", scopes: "catalog:read" }, as(alice));
    expect(token).toMatch(/^omf_[A-Za-z0-9_-]{43}$/);
    const row = (await t.db.select().from(accessTokens).limit(1))[0]!;
    expect(JSON.stringify(row)).not.toContain(token.slice(4));
    expect(info).toMatchObject({ name: "laptop", userEmail: "alice@x.io", scopes: ["catalog:read"] });
    expect(audit.events.map((e) => e.type)).toEqual(["token_created"]);
    expect(JSON.stringify(audit.events)).not.toContain(token);
  });

  it("a valid token names its user and records when it was last used", async () => {
    const { token } = await createToken(t.db, alice, { name: "ci", scopes: ["catalog:read", "telemetry:write"] }, as(alice));
    const p = await authenticateBearer(t.db, `Bearer ${token}`, "catalog:read");
    expect(p).toMatchObject({ email: "alice@x.io", role: "author", scopes: ["catalog:read", "telemetry:write"] });
    expect((await listTokens(t.db, alice))[0]!.lastUsedAt).toBeInstanceOf(Date);
  });

  it("unknown, expired and revoked tokens are 401; a missing scope is 403", async () => {
    const now = new Date();
    const { token, info } = await createToken(t.db, alice, { name: "x", scopes: "catalog:read", expiresInDays: 1 }, as(alice), now);
    await expect(authenticateBearer(t.db, "Bearer omf_nope", "catalog:read")).rejects.toThrow(expect.objectContaining({ code: "UNAUTHORIZED" }));
    await expect(authenticateBearer(t.db, `Bearer ${token}`, "telemetry:write")).rejects.toThrow(expect.objectContaining({ code: "FORBIDDEN" }));
    await expect(authenticateBearer(t.db, `Bearer ${token}`, "catalog:read", new Date(now.getTime() + 2 * 86_400_000))).rejects.toThrow(expect.objectContaining({ code: "UNAUTHORIZED" }));
    await revokeToken(t.db, alice, info.id, as(alice));
    await expect(authenticateBearer(t.db, `Bearer ${token}`, "catalog:read")).rejects.toThrow(expect.objectContaining({ code: "UNAUTHORIZED" }));
    // Both changes are audited as done, so "outcome: ok" filters find them like every other change.
    expect(audit.events.map((e) => [e.type, e.outcome])).toEqual([["token_created", "ok"], ["token_revoked", "ok"]]);
  });

  it("a disabled user's tokens stop working at once", async () => {
    const { token } = await createToken(t.db, alice, { name: "x", scopes: "catalog:read" }, as(alice));
    await updateUser(t.db, alice.id, { disabled: true });
    await expect(authenticateBearer(t.db, `Bearer ${token}`, "catalog:read")).rejects.toThrow(expect.objectContaining({ code: "UNAUTHORIZED" }));
  });

  it("users manage only their own tokens; administrators also machine tokens and anyone's", async () => {
    await expect(createToken(t.db, alice, { name: "m", scopes: "catalog:read", forUserId: "machine" }, as(alice))).rejects.toThrow(expect.objectContaining({ code: "FORBIDDEN" }));
    const mine = (await createToken(t.db, alice, { name: "mine", scopes: "catalog:read" }, as(alice))).info;
    const machine = (await createToken(t.db, admin, { name: "fleet", scopes: "telemetry:write", forUserId: "machine" }, as(admin))).info;
    expect(machine.userId).toBeNull();
    expect((await listTokens(t.db, alice)).map((x) => x.name)).toEqual(["mine"]);
    await expect(listTokens(t.db, alice, { all: true })).rejects.toThrow(expect.objectContaining({ code: "FORBIDDEN" }));
    expect((await listTokens(t.db, admin, { all: true })).map((x) => x.name).sort()).toEqual(["fleet", "mine"]);
    await expect(revokeToken(t.db, alice, machine.id, as(alice))).rejects.toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
    expect((await revokeToken(t.db, admin, mine.id, as(admin))).revokedAt).toBeInstanceOf(Date);
  });

  it("refuses unknown scopes and silly expiries", async () => {
    await expect(createToken(t.db, alice, { name: "x", scopes: "catalog:write" }, as(alice))).rejects.toThrow(/Unknown scope/);
    await expect(createToken(t.db, alice, { name: "x", scopes: "catalog:read", expiresInDays: 0 }, as(alice))).rejects.toThrow(/expiry/);
  });
});
