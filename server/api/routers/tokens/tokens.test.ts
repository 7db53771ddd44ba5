// The tokens router on a real SQLite file: a viewer manages their own tokens, an administrator sees everyone's
// with each token's last sync, and refusals come back as FORBIDDEN (audited as access_denied).
import { afterEach, beforeEach, expect, it } from "vitest";
import { tempDb } from "../../../test-support/temp-db";
import { resolveDataHome } from "../../../config";
import { MemoryAuditSink } from "../../../runtime/audit/events";
import { recordSync } from "../../../services/catalog-api";
import { authenticateBearer } from "../../../services/tokens";
import { createUser } from "../../../services/users/users";
import type { SessionUser } from "../../../auth";
import { callerFor } from "../../../test-support/caller";

let t: ReturnType<typeof tempDb>;
let audit: MemoryAuditSink;
let viewer: SessionUser;
let admin: SessionUser;
beforeEach(async () => {
  t = tempDb();
  audit = new MemoryAuditSink();
  const v = await createUser(t.db, { email: "v@x.io", role: "viewer", password: "password1" });
  const a = await createUser(t.db, { email: "a@x.io", role: "admin", password: "password1" });
  viewer = { id: v.id, email: v.email, name: "", role: "viewer" };
  admin = { id: a.id, email: a.email, name: "", role: "admin" };
});
afterEach(() => t.cleanup());

const caller = (u: SessionUser) => callerFor({ db: t.db, dataHome: resolveDataHome({ OMNIFORGE_HOME: t.dir }), audit }, u);

it("a viewer makes, lists and revokes their own token; machine tokens are refused and audited", async () => {
  const made = await caller(viewer).tokens.create({ name: "laptop", scopes: ["catalog:read"], expiresInDays: 30 });
  expect(made.token).toMatch(/^omf_/);
  expect((await caller(viewer).tokens.list()).map((x) => [x.name, x.lastSyncAt])).toEqual([["laptop", null]]);
  await expect(caller(viewer).tokens.create({ name: "m", scopes: ["catalog:read"], expiresInDays: 30, forUserId: "machine" })).rejects.toMatchObject({ code: "FORBIDDEN" });
  expect(audit.events.some((e) => e.type === "access_denied" && e.details?.procedure === "tokens.create")).toBe(true);
  await caller(viewer).tokens.revoke({ id: made.info.id });
  expect((await caller(viewer).tokens.list())[0]!.revokedAt).toBeInstanceOf(Date);
});

it("an administrator sees every token with its last sync, and where a skill is deployed", async () => {
  const mine = await caller(viewer).tokens.create({ name: "laptop", scopes: ["catalog:read"], expiresInDays: 30 });
  await caller(admin).tokens.create({ name: "fleet", scopes: ["catalog:read"], expiresInDays: 30, forUserId: "machine" });
  await recordSync(t.db, await authenticateBearer(t.db, `Bearer ${mine.token}`, "catalog:read"), { host: "pc-7", agent: "gemini", scope: "user", skills: [{ name: "pdf", digest: "sha256:" + "b".repeat(64) }] }, audit);
  const all = await caller(admin).tokens.list({ all: true });
  expect(all.map((x) => [x.name, x.userEmail, x.lastSyncAt instanceof Date])).toEqual(expect.arrayContaining([["laptop", "v@x.io", true], ["fleet", null, false]]));
  expect(await caller(admin).tokens.deployments({ name: "pdf" })).toMatchObject([{ host: "pc-7", agent: "gemini", user: "v@x.io" }]);
  expect(await caller(viewer).tokens.deployments({ name: "pdf" })).toHaveLength(1);
});
