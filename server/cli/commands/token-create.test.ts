// `omniforge token create` against a real console.db in a temp data home: the token alone on stdout, and it
// opens the catalog for that user; usage problems exit 2.
import { afterEach, beforeEach, expect, it } from "vitest";
import { flushAudit } from "../../services/audit";
import { authenticateBearer } from "../../services/tokens";
import { createUser } from "../../services/users/users";
import { tempDb } from "../../test-support/temp-db";
import { auditEvents } from "../../../db/schema";
import type { CliIO } from "../io";
import { run } from "./token-create";

let t: ReturnType<typeof tempDb>;
beforeEach(async () => {
  t = tempDb();
  await createUser(t.db, { email: "bob@x.io", role: "author", password: "password1" });
});
afterEach(() => t.cleanup());

function capture(): CliIO & { stdout: string; stderr: string } {
  const io = { stdout: "", stderr: "", env: {}, cwd: t.dir } as CliIO & { stdout: string; stderr: string };
  io.out = (s) => void (io.stdout += s);
  io.err = (s) => void (io.stderr += s);
  return io;
}

it("prints the token alone, which then authenticates as that user with those scopes", async () => {
  const io = capture();
  expect(await run(["--home", t.dir, "--email", "Bob@x.io", "--scope", "catalog:read,telemetry:write", "--expires", "7"], io)).toBe(0);
  expect(io.stdout).toMatch(/^omf_\S+\n$/);
  const p = await authenticateBearer(t.db, `Bearer ${io.stdout.trim()}`, "catalog:read");
  expect(p).toMatchObject({ email: "bob@x.io", scopes: ["catalog:read", "telemetry:write"] });
  flushAudit(t.db);
  expect(t.db.select().from(auditEvents).all().map((e) => e.type)).toContain("token_created");
});

it("refuses an unknown user, an unknown scope and a bad expiry", async () => {
  expect(await run(["--home", t.dir, "--email", "nobody@x.io", "--scope", "catalog:read"], capture())).toBe(1);
  expect(await run(["--home", t.dir, "--email", "bob@x.io", "--scope", "catalog:write"], capture())).toBe(2);
  expect(await run(["--home", t.dir, "--email", "bob@x.io", "--scope", "catalog:read", "--expires", "soon"], capture())).toBe(2);
  // Out of range is a usage error naming the range, before the database is touched (as the console's form says).
  for (const bad of ["0", "367", "1".repeat(30)]) {
    const io = capture();
    expect(await run(["--home", t.dir, "--email", "bob@x.io", "--scope", "catalog:read", "--expires", bad], io)).toBe(2);
    expect(io.stderr).toContain("--expires takes a whole number of days from 1 to 366");
  }
});
