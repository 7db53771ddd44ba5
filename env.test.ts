import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setting, type SettingName } from "./env";

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

describe("values a person gets wrong", () => {
  const message = (name: SettingName, value: string) => {
    try {
      setting(name, { [name]: value });
      return "accepted";
    } catch (e) {
      return (e as Error).message;
    }
  };

  // "localhost:3000" parses as a URL whose scheme is "localhost:"; the console then started, and sign-in
  // silently sent everyone back to the login page.
  for (const name of ["NEXTAUTH_URL", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"] as const) {
    it(`${name} without http:// or https:// is refused, saying so`, () => {
      expect(message(name, "localhost:3000")).toBe(`Invalid environment variable ${name}: must be an http:// or https:// URL, such as http://localhost:3000`);
      expect(message(name, "http://localhost:3000")).toBe("accepted");
    });
  }

  // Found following docs/deploy.md's team setup with a generated password: one holding / or # gave "must be a
  // postgres:// URL" and nothing on why, and "12/34" parsed as port 12 of a host named "omniforge".
  it("DATABASE_URL with an unencoded password says what to percent-encode, and never repeats the password", () => {
    for (const pw of ["q7/Xk+9Lm2@vT", "12/34", "ab#cd", "50%off"]) {
      const m = message("DATABASE_URL", `postgres://omniforge:${pw}@db.internal:5432/omniforge`);
      expect(m).toBe(
        "Invalid environment variable DATABASE_URL: must be a postgres:// URL, such as postgres://omniforge:PASSWORD@db.internal:5432/omniforge, with @ : / ? # % percent-encoded in the user name and password (encodeURIComponent; / is %2F, @ is %40)",
      );
      expect(m).not.toContain(pw);
      expect(message("DATABASE_URL", `postgres://omniforge:${encodeURIComponent(pw)}@db.internal:5432/omniforge`)).toBe("accepted");
    }
    expect(message("DATABASE_URL", "mysql://db.internal/omniforge")).toBe("Invalid environment variable DATABASE_URL: must be a postgres:// URL, such as postgres://omniforge:PASSWORD@db.internal:5432/omniforge");
    expect(message("DATABASE_URL", "postgresql:///omniforge?host=/var/run/postgresql")).toBe("accepted");
  });

  it("a number out of range says the range, not that it is no number", () => {
    expect(message("OMNIFORGE_TELEMETRY_MAX_BYTES", "10")).toBe("Invalid environment variable OMNIFORGE_TELEMETRY_MAX_BYTES: must be from 1024 to 67108864 bytes");
    expect(message("OMNIFORGE_TELEMETRY_MAX_BYTES", "lots")).toBe("Invalid environment variable OMNIFORGE_TELEMETRY_MAX_BYTES: must be a number of bytes");
    expect(message("OMNIFORGE_AUDIT_RETENTION_DAYS", "-1")).toBe("Invalid environment variable OMNIFORGE_AUDIT_RETENTION_DAYS: must be from 0 (keep everything) to 36500 days");
  });
});

describe("the data home and project at start", () => {
  const start = (env: Record<string, string>) =>
    spawnSync(path.join(repo, "node_modules/.bin/tsx"), ["scripts/start.ts"], {
      cwd: repo,
      env: { PATH: process.env.PATH, ...env } as unknown as NodeJS.ProcessEnv,
      encoding: "utf8",
      timeout: 30_000,
    });
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-start-"));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it("a data home that cannot be made is one line naming OMNIFORGE_HOME, not a stack trace", () => {
    const file = path.join(tmp, "a-file");
    fs.writeFileSync(file, "");
    const r = start({ OMNIFORGE_HOME: file });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr.trim()).toMatch(new RegExp(`^omniforge: OMNIFORGE_HOME=${file}: the data home cannot be made there \\(EEXIST: `));
  });

  // The CLI refuses it the same way; the console used to create the folder and show an empty project layer.
  it("an OMNIFORGE_PROJECT_ROOT that names no folder stops the start and is not created", () => {
    const missing = path.join(tmp, "no-such-project");
    const r = start({ OMNIFORGE_HOME: path.join(tmp, "home"), OMNIFORGE_PROJECT_ROOT: missing });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(`omniforge: OMNIFORGE_PROJECT_ROOT=${missing}: not a folder`);
    expect(fs.existsSync(missing)).toBe(false);
  });
});
