import { describe, expect, it } from "vitest";
import { bubblewrap, itNeeding } from "../../test-support/needs";
import type { CliIO } from "../io";
import { run } from "./sandbox-check";

function capture(env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { out: (t) => void out.push(t), err: (t) => void err.push(t), env: env as NodeJS.ProcessEnv, cwd: process.cwd() };
  return { io, out: () => out.join(""), err: () => err.join("") };
}

describe("omniforge sandbox check", () => {
  itNeeding(bubblewrap(), "prints the mode and each check, exit 0 when scripts can run", async () => {
    const c = capture();
    const code = await run([], c.io);
    expect(code).toBe(0);
    expect(c.out()).toMatch(/^mode: sandboxed/);
    expect(c.out()).toMatch(/ok {3}canary/);
  });

  itNeeding(bubblewrap(), "--json prints the status object", async () => {
    const c = capture();
    expect(await run(["--json"], c.io)).toBe(0);
    const status = JSON.parse(c.out());
    expect(status.checks.map((x: { name: string }) => x.name)).toContain("canary");
  });

  it("exits 1 and names what is missing when bwrap is not there", async () => {
    const c = capture();
    expect(await run(["--bwrap", "/nonexistent/bwrap"], c.io)).toBe(1);
    expect(c.out()).toContain("mode: unavailable");
    expect(c.out()).toContain("bwrap not found at /nonexistent/bwrap");
    expect(c.out()).toMatch(/FAIL binaries/);
  });

  it("only the exact OMNIFORGE_SANDBOX=unsafe enables unsafe mode, and it still exits 1", async () => {
    const unsafe = capture({ OMNIFORGE_SANDBOX: "unsafe" });
    expect(await run(["--bwrap", "/nonexistent/bwrap"], unsafe.io)).toBe(1);
    expect(unsafe.out()).toContain("mode: unsafe");
    const other = capture({ OMNIFORGE_SANDBOX: "yes" });
    await run(["--bwrap", "/nonexistent/bwrap"], other.io);
    expect(other.out()).toContain("mode: unavailable");
  });

  it("rejects unknown arguments with usage", async () => {
    const c = capture();
    expect(await run(["--bogus"], c.io)).toBe(2);
    expect(c.err()).toContain("usage: omniforge sandbox check");
  });
});
