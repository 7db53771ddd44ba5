// The console's bootstrap (what instrumentation.ts runs before the server listens), in its own process: work that
// would otherwise fall on the first request that needs it is done here (issue 35 item 5).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "../..");

describe("the console's start", () => {
  it("loads the token estimator's encoding before the first request, which then counts with it", () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "of-bootstrap-home-"));
    const file = path.join(home, "start.mts");
    // Whether the encoding's module is in the process's module cache, before and after the bootstrap.
    fs.writeFileSync(
      file,
      `
      import { createRequire } from "node:module";
      const cache = createRequire(import.meta.url).cache;
      const loaded = () => Object.keys(cache).some((k) => k.includes("o200k_base"));
      const before = loaded();
      const { ensureReady } = await import(${JSON.stringify(path.join(repo, "server/services/bootstrap.ts"))});
      await ensureReady();
      const { estimateTokens } = await import(${JSON.stringify(path.join(repo, "server/runtime/skill/tokens.ts"))});
      console.log("LOADED " + JSON.stringify({ before, after: loaded(), tokens: estimateTokens("Fill in the fields of a PDF form.") }));
      `,
    );
    try {
      const r = spawnSync(process.execPath, ["--import", "tsx", file], {
        cwd: repo,
        encoding: "utf8",
        timeout: 60_000,
        env: { PATH: process.env.PATH, OMNIFORGE_HOME: home, OMNIFORGE_DEMO: "0", OMNIFORGE_AUDIT_STDOUT: "0" } as unknown as NodeJS.ProcessEnv,
      });
      expect(r.status, r.stderr).toBe(0);
      const line = r.stdout.split("\n").find((l) => l.startsWith("LOADED "));
      expect(JSON.parse(line!.slice(7))).toEqual({ before: false, after: true, tokens: 9 });
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
