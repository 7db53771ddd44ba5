// The scope defaults the console and the CLI share: OMNIFORGE_DEFAULT_* over config.yaml's `defaults`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { configContextFor } from "./skills-config";

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("scope defaults", () => {
  it("takes OMNIFORGE_DEFAULT_* over config.yaml, key by key, and says where each came from", () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "scope-defaults-"));
    fs.writeFileSync(path.join(dir, "config.yaml"), "defaults:\n  environment: dev\n  tenant: acme\n");
    const ctx = configContextFor(dir, path.join(dir, "project"), { OMNIFORGE_DEFAULT_ENVIRONMENT: "prod", OMNIFORGE_DEFAULT_AGENT: "ops" });
    expect(ctx.scopeDefaults).toEqual({
      environment: "prod",
      agent: "ops",
      tenant: "acme",
      from: { environment: "OMNIFORGE_DEFAULT_ENVIRONMENT", agent: "OMNIFORGE_DEFAULT_AGENT", tenant: path.join(dir, "config.yaml") },
    });
    expect(configContextFor(dir, dir, {}).scopeDefaults?.environment).toBe("dev");
  });

  it("sets nothing when nothing is configured, and refuses a value that is not a name", () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "scope-defaults-"));
    expect(configContextFor(dir, dir, {}).scopeDefaults).toBeUndefined();
    expect(() => configContextFor(dir!, dir!, { OMNIFORGE_DEFAULT_TENANT: "a b" })).toThrow(/OMNIFORGE_DEFAULT_TENANT: must be a name/);
  });
});

describe("skills on or off", () => {
  it("OMNIFORGE_SKILLS_ENABLED wins over config.yaml's skills.enabled either way; unset, the file decides", () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "skills-enabled-"));
    fs.writeFileSync(path.join(dir, "config.yaml"), "skills:\n  enabled: false\n");
    expect(configContextFor(dir, dir, {}).skillsEnabled).toBe(false);
    expect(configContextFor(dir, dir, { OMNIFORGE_SKILLS_ENABLED: "1" }).skillsEnabled).toBeUndefined();
    fs.writeFileSync(path.join(dir, "config.yaml"), "skills:\n  enabled: true\n");
    expect(configContextFor(dir, dir, { OMNIFORGE_SKILLS_ENABLED: "off" }).skillsEnabled).toBe(false);
  });
});
