import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseEnv } from "../db/test-support/postgres-run";

// The session check as the tRPC route makes it, over a real data home: claims kept per Cookie header must never
// outlive the session they name, nor make another cookie count.
const home = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-auth-"));
const secret = "test-secret-".padEnd(40, "x");
let auth: typeof import("./auth");
let db: import("../db/client").Db;
let sessions: typeof import("./services/auth/sessions");
let ann: { id: string; email: string };

beforeAll(async () => {
  Object.assign(process.env, { OMNIFORGE_HOME: home, OMNIFORGE_DEMO: "0", NEXTAUTH_SECRET: secret, OMNIFORGE_AUDIT_STDOUT: "0", ...testDatabaseEnv() });
  auth = await import("./auth");
  sessions = await import("./services/auth/sessions");
  const { ensureReady } = await import("./services/bootstrap");
  const { createUser } = await import("./services/users/users");
  db = (await ensureReady()).db;
  ann = await createUser(db, { email: "ann@x.io", role: "author", password: "password1" });
});
afterAll(async () => {
  const { closeAllIndexes } = await import("./services/catalog/catalog");
  await closeAllIndexes();
  fs.rmSync(home, { recursive: true, force: true });
});

const cookieFor = async (sid: string, maxAge = 3600) =>
  `theme=dark; next-auth.session-token=${await encode({ token: { sub: ann.id, sid }, secret, maxAge })}`;
const userOf = (cookie: string) => auth.sessionUserOfRequest(new Headers({ cookie }));

describe("the session of a request's cookie", () => {
  it("is the signed-in user while the session is open, and no one once it ends, though the cookie was seen before", async () => {
    const sid = await sessions.startSession(db, ann.id, "127.0.0.1");
    const cookie = await cookieFor(sid);
    expect(await userOf(cookie)).toMatchObject({ id: ann.id, email: "ann@x.io", role: "author" });
    expect(await userOf(cookie)).toMatchObject({ id: ann.id });
    await sessions.endSession(db, sid, "sign_out");
    expect(await userOf(cookie)).toBeNull();
  });

  it("is no one for an expired cookie, an altered one, or none", async () => {
    const sid = await sessions.startSession(db, ann.id, "127.0.0.1");
    const expired = await cookieFor(sid, -60);
    expect(await userOf(expired)).toBeNull();
    const good = await cookieFor(sid);
    expect(await userOf(good)).toMatchObject({ id: ann.id });
    // The same header with one character of the token changed.
    const altered = good.replace(/(session-token=.{20})(.)/, (_, head: string, c: string) => head + (c === "A" ? "B" : "A"));
    expect(await userOf(altered)).toBeNull();
    expect(await userOf("theme=dark")).toBeNull();
    expect(await auth.sessionUserOfRequest(new Headers())).toBeNull();
  });
});
