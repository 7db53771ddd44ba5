// Without bubblewrap the sandbox refuses to run anything, unless the host asked for unsafe runs explicitly.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isRoot, itNeeding, root as rootUser } from "../../test-support/needs";
import { createSandbox } from "./index";
import { SECRET, UID } from "./test-support/sandbox";

describe("sandbox refusal when no sandbox is available", () => {
  it("refuses every run with a clear message when bwrap is missing", async () => {
    const sb = createSandbox({ bwrapPath: "/nonexistent/bwrap" });
    try {
      const status = await sb.status();
      expect(status.mode).toBe("unavailable");
      expect(status.detail).toContain("Script execution is disabled");
      expect(status.detail).toContain("bwrap not found at /nonexistent/bwrap");
      expect(status.detail).toContain("apt-get install bubblewrap");
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sbx-refuse-"));
      try {
        const r = await sb.run({ skillDir: dir, scratchDir: path.join(dir, "scratch"), command: `touch ${dir}/ran` });
        expect(r.refused).toContain("Script execution is disabled");
        expect(r.exitCode).toBeNull();
        expect(fs.existsSync(path.join(dir, "ran"))).toBe(false);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    } finally {
      await sb.close();
    }
  });

  itNeeding(rootUser(), "says to fix the temporary folder, not to install bubblewrap, when the sandbox user cannot reach it", async () => {
    const priv = fs.mkdtempSync(path.join(os.tmpdir(), "sbx-private-tmp-")); // 0700, as a TMPDIR of one's own may be
    const sb = createSandbox({ runtimeDir: priv });
    try {
      const status = await sb.status();
      expect(status.mode).toBe("unavailable");
      expect(status.checks.find((c) => c.name === "runtime")).toMatchObject({ ok: false, detail: expect.stringContaining(`${priv} is not searchable`) });
      expect(status.detail).toContain("Give the server a temporary folder other users can search (TMPDIR; /tmp is)");
      expect(status.detail).not.toContain("apt-get install bubblewrap");
    } finally {
      await sb.close();
      fs.rmSync(priv, { recursive: true, force: true });
    }
  });

  it.skipIf(!fs.existsSync("/usr/bin/prlimit"))("runs unsandboxed only with the explicit unsafe option, still with a minimal env and limits", async () => {
    process.env.OMNIFORGE_TEST_SERVER_SECRET = SECRET;
    const sb = createSandbox({ bwrapPath: "/nonexistent/bwrap", unsafe: true });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sbx-unsafe-"));
    fs.chmodSync(dir, 0o755);
    try {
      expect((await sb.status()).mode).toBe("unsafe");
      const r = await sb.run({ skillDir: dir, scratchDir: path.join(dir, "scratch"), command: "env; id -u; ulimit -u", env: { EXTRA: "yes" } });
      expect(r.sandboxed).toBe(false);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).not.toContain(SECRET);
      expect(r.stdout).toContain("EXTRA=yes");
      const lines = r.stdout.trim().split("\n");
      if (isRoot) expect(lines.at(-2)).toBe(String(UID));
      expect(Number(lines.at(-1))).toBeLessThanOrEqual(64);
      const slow = await sb.run({ skillDir: dir, scratchDir: path.join(dir, "scratch"), command: "sleep 20 & sleep 20", limits: { wallMs: 500 } });
      expect(slow.timedOut).toBe(true);
    } finally {
      delete process.env.OMNIFORGE_TEST_SERVER_SECRET;
      await sb.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
