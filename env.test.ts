import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repo = import.meta.dirname;

describe("environment validation at start", () => {
  it("fails with one line naming the bad variable", () => {
    const r = spawnSync(path.join(repo, "node_modules/.bin/tsx"), ["scripts/start.ts"], {
      cwd: repo,
      env: { PATH: process.env.PATH, OMNIFORGE_ADMIN_EMAIL: "not-an-email" } as unknown as NodeJS.ProcessEnv,
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^omniforge: Invalid environment variable OMNIFORGE_ADMIN_EMAIL: /);
  });
});

describe("address and origin settings", () => {
  for (const [name, value, message] of [
    ["OMNIFORGE_TRUSTED_PROXIES", "10.0.0.1, proxy.local", '"proxy.local" is not an address or CIDR'],
    ["OMNIFORGE_ALLOWED_ORIGINS", "https://ok.example, https://bad.example/path", '"https://bad.example/path" is not an origin (scheme://host[:port], nothing after it)'],
  ] as const) {
    it(`a bad ${name} stops the start with the entry named`, () => {
      const r = spawnSync(path.join(repo, "node_modules/.bin/tsx"), ["scripts/start.ts"], {
        cwd: repo,
        env: { PATH: process.env.PATH, [name]: value } as unknown as NodeJS.ProcessEnv,
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(r.status).toBe(1);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr.trim()).toBe(`omniforge: Invalid environment variable ${name}: ${message}`);
    });
  }
});
