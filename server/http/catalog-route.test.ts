// GET /api/catalog over real HTTP on 127.0.0.1 against a real data home and SQLite file: who gets in, what the
// policy leaves out (exactly as the playground resolves), the tar, 304 for an unchanged catalog, and the
// reports `omniforge sync` sends back.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readTar } from "../runtime/registry/tar";
import { changePolicy } from "../services/governance/policy-change";
import { govHome } from "../services/governance/test-support/governance";
import { useTestHome } from "../test-support/test-home";
import { sessionSkills } from "../services/playground/scope";
import { createToken, revokeToken } from "../services/tokens";
import { createUser } from "../services/users/users";
import { serveFetch } from "../test-support/http-server";
import { deploymentsOf } from "../services/catalog-api";
import { handleCatalogRequest, handleSyncReport } from "./catalog-route";

const h = useTestHome(govHome);
let server: Awaited<ReturnType<typeof serveFetch>>;
let aliceId: string;
let token: string;
let tokenId: string;

beforeEach(async () => {
  const alice = await createUser(h.db, { email: "alice@x.io", role: "author", password: "password1" });
  aliceId = alice.id;
  ({ token, info: { id: tokenId } } = await createToken(h.db, { id: alice.id, role: "author" }, { name: "laptop", scopes: "catalog:read" }, { audit: h.audit, actor: { id: alice.id } }));
  h.skill("enterprise", "pdf-forms", { scripts: { "fill.sh": "#!/bin/sh\necho filled\n" } });
  h.skill("enterprise", "release-notes");
  h.skill("personal", "my-notes", { userId: alice.id });
  h.skill("personal", "someone-elses", { userId: "bob-id" });
  h.skill("project", "ops-only", { extra: "scope:\n  agents: [ops-agent]" });
  server = await serveFetch((req) => handleCatalogRequest(req, { db: h.db, dataHome: h.dataHome }));
});
afterEach(async () => {
  await server.close();
});

// As claude-code: the project skill scoped to ops-agent is out of scope for it.
const get = (query: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/api/catalog${query || "?agent=claude-code"}`, { headers });
const bearer = (t = token) => ({ authorization: `Bearer ${t}` });
const names = async (res: Response) => ((await res.json()) as { skills: { name: string }[] }).skills.map((s) => s.name);

describe("who may read the catalog", () => {
  it("no token, an unknown token and a cookie alone get 401", async () => {
    expect((await get("")).status).toBe(401);
    expect((await get("", bearer("omf_not-a-token"))).status).toBe(401);
    expect((await get("", { cookie: "next-auth.session-token=x" })).status).toBe(401);
  });

  it("a revoked or expired token gets 401", async () => {
    await revokeToken(h.db, { id: aliceId, role: "author" }, tokenId, { audit: h.audit, actor: { id: aliceId } });
    expect((await get("", bearer())).status).toBe(401);
    const old = await createToken(h.db, { id: aliceId, role: "author" }, { name: "old", scopes: "catalog:read", expiresInDays: 1 }, { audit: h.audit, actor: { id: aliceId } }, new Date(Date.now() - 2 * 86_400_000));
    expect((await get("", bearer(old.token))).status).toBe(401);
  });

  it("a token without catalog:read gets 403", async () => {
    const t = await createToken(h.db, { id: aliceId, role: "author" }, { name: "otel", scopes: "telemetry:write" }, { audit: h.audit, actor: { id: aliceId } });
    const res = await get("", bearer(t.token));
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: "FORBIDDEN" } });
  });
});

describe("what the catalog holds", () => {
  it("the user's effective skills, the same as their playground, each with a folder digest", async () => {
    const res = await get("?agent=claude-code", bearer());
    expect(res.status).toBe(200);
    const body = (await res.json()) as { user: string; skills: { name: string; digest: string; files: { path: string; executable: boolean }[] }[] };
    expect(body.user).toBe("alice@x.io");
    expect(body.skills.map((s) => s.name)).toEqual(["my-notes", "pdf-forms", "release-notes"]);
    const playground = await sessionSkills(h.db, h.dataHome, { userId: aliceId, agent: "claude-code", environment: null, tenant: null, skills: null } as never);
    expect(body.skills.map((s) => s.name)).toEqual(playground.map((e) => e.name));
    const pdf = body.skills.find((s) => s.name === "pdf-forms")!;
    expect(pdf.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(pdf.files).toEqual(expect.arrayContaining([{ path: "scripts/fill.sh", size: expect.any(Number), executable: true }]));
    expect(await names(await get("?agent=ops-agent", bearer()))).toContain("ops-only");
  });

  it("a skill blocked by policy is absent, and the ETag changes", async () => {
    const before = await get("", bearer());
    await changePolicy(h.db, { op: "block", name: "release-notes" }, { audit: h.audit, actor: { id: "admin-id" } });
    const after = await get("", bearer());
    expect(await names(after)).toEqual(["my-notes", "pdf-forms"]);
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
  });

  it("polling with If-None-Match gets 304 until something changes", async () => {
    const first = await get("", bearer());
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await get("", { ...bearer(), "if-none-match": etag });
    expect(again.status).toBe(304);
    h.skill("enterprise", "release-notes", { body: "# release-notes\n\nNew steps.\n" });
    expect((await get("", { ...bearer(), "if-none-match": etag })).status).toBe(200);
  });

  it("?format=tar streams the folders under <name>/, scripts executable", async () => {
    const res = await get("?format=tar&agent=claude-code", bearer());
    expect(res.headers.get("content-type")).toBe("application/x-tar");
    const buf = new Uint8Array(await res.arrayBuffer());
    const entries = await readTar(buf, 1000);
    expect(entries.map((e) => e.name).sort()).toEqual(["my-notes/SKILL.md", "pdf-forms/SKILL.md", "pdf-forms/scripts/fill.sh", "release-notes/SKILL.md"]);
    // Executable by whoever unpacks it (owner, group and others), as the file is in the skill.
    expect(entries.find((e) => e.name.endsWith("fill.sh"))!.mode & 0o111).toBe(0o111);
    expect(res.headers.get("etag")).toMatch(/-tar"$/);
  });

  it("a machine token gets the shared layers only (no personal layer)", async () => {
    const m = await createToken(h.db, { id: "admin", role: "admin" }, { name: "fleet", scopes: "catalog:read", forUserId: "machine" }, { audit: h.audit, actor: { id: "admin" } });
    expect(await names(await get("", bearer(m.token)))).toEqual(["pdf-forms", "release-notes"]);
  });

  // Issue #35 item 8: one author's skill must not stop everyone's sync (which refuses a whole catalog with either).
  it("leaves out, and names, a skill whose name is a path and one that differs only in case from a higher layer's", async () => {
    h.skill("project", "x", { name: "../../../../tmp/x" });
    h.skill("project", "Code-Review", { name: "Code-Review" });
    h.skill("enterprise", "code-review");
    const res = await get("", bearer());
    const body = (await res.json()) as { skills: { name: string }[]; skipped: { name: string; reason: string }[] };
    expect(body.skills.map((s) => s.name)).toEqual(expect.arrayContaining(["code-review", "pdf-forms"]));
    expect(body.skills.map((s) => s.name)).not.toContain("Code-Review");
    expect(body.skipped).toEqual(
      expect.arrayContaining([
        { name: "../../../../tmp/x", reason: expect.stringMatching(/cannot be a folder name/) },
        { name: "Code-Review", reason: expect.stringMatching(/differs only in case from "code-review" of the enterprise layer/) },
      ]),
    );
    const tar = await readTar(new Uint8Array(await (await get("?format=tar&agent=claude-code", bearer())).arrayBuffer()), 1000);
    expect(tar.some((e) => e.name.includes(".."))).toBe(false);
    expect(tar.some((e) => e.name.startsWith("code-review/"))).toBe(true);
  });

  it("leaves out, and names, a skill holding a file name with a terminal escape (sync would refuse the archive)", async () => {
    const dir = h.skill("project", "escapes");
    fs.writeFileSync(path.join(dir, "good\u001b]0;owned\u0007evil"), "x");
    const body = (await (await get("", bearer())).json()) as { skills: { name: string }[]; skipped: { name: string; reason: string }[] };
    expect(body.skills.map((s) => s.name)).not.toContain("escapes");
    expect(body.skills.map((s) => s.name)).toContain("pdf-forms");
    expect(body.skipped).toEqual([{ name: "escapes", reason: expect.stringMatching(/control or direction character in its name/) }]);
  });

  it("an unknown format is a 400", async () => {
    expect((await get("?format=zip&agent=claude-code", bearer())).status).toBe(400);
  });
});

describe("sync reports (POST /api/catalog/deployments)", () => {
  const report = (body: unknown, t = token) =>
    fetch(`${reportServer.url}/api/catalog/deployments`, { method: "POST", headers: { authorization: `Bearer ${t}`, "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });
  let reportServer: Awaited<ReturnType<typeof serveFetch>>;
  beforeEach(async () => {
    reportServer = await serveFetch((req) => handleSyncReport(req, { db: h.db, audit: h.audit }));
  });
  afterEach(() => reportServer.close());
  const digest = "sha256:" + "a".repeat(64);

  it("records where each skill is, replaces that place's list on the next report, and audits once per report", async () => {
    const first = await report({ host: "laptop-1", agent: "claude-code", scope: "user", skills: [{ name: "pdf-forms", digest }, { name: "release-notes", digest }] });
    expect(first.status).toBe(200);
    await report({ host: "laptop-1", agent: "claude-code", scope: "user", skills: [{ name: "pdf-forms", digest }] });
    const admin = { id: "x", role: "admin" as const };
    expect(await deploymentsOf(h.db, admin, "pdf-forms")).toMatchObject([{ host: "laptop-1", agent: "claude-code", user: "alice@x.io", tokenName: "laptop", digest }]);
    expect(await deploymentsOf(h.db, admin, "release-notes")).toEqual([]);
    expect(await deploymentsOf(h.db, { id: "someone-else", role: "author" }, "pdf-forms")).toEqual([]);
    expect(h.audit.events.filter((e) => e.type === "catalog_synced")).toHaveLength(2);
  });

  it("a malformed report is a 400 and records nothing; a token without catalog:read is a 403", async () => {
    expect((await report("{not json")).status).toBe(400);
    const bad = await report({ host: "h", agent: "vim", scope: "user", skills: [] });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/agent/);
    const t = await createToken(h.db, { id: aliceId, role: "author" }, { name: "otel", scopes: "telemetry:write" }, { audit: h.audit, actor: { id: aliceId } });
    expect((await report({ host: "h", agent: "codex", scope: "user", skills: [] }, t.token)).status).toBe(403);
    expect(h.audit.events.filter((e) => e.type === "catalog_synced")).toEqual([]);
  });
});
