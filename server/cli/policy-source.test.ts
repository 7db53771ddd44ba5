// A --policy file goes through the same whole-file check as `omniforge policy import`: refused with one line, never
// half-read.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempLayers } from "../runtime/registry/test-support/registry";
import { policyFor } from "./policy-source";

const t = tempLayers();
afterAll(() => t.cleanup());

const load = (json: string) => {
  fs.writeFileSync(path.join(t.base, "p.json"), json);
  return policyFor(t.config, { file: "p.json", cwd: t.base });
};

describe("policyFor with --policy FILE", () => {
  it("reads a good file as the policy it describes", async () => {
    const s = await load(JSON.stringify({ blockedNames: ["notes"], disabled: [{ name: "pdf", layer: "project" }], forbiddenNamePatterns: ["/^x-/"] }));
    expect(s.from).toBe(path.join(t.base, "p.json"));
    expect(s.policy).toMatchObject({ blockedNames: ["notes"], disabled: [{ name: "pdf", layer: "project" }], forbiddenNamePatterns: ["/^x-/"] });
  });

  it.each([
    ['{"blockedNames":5}', "blockedNames: must be a list"],
    ['{"disabled":"x"}', "disabled: must be a list"],
    ['{"blockedNames":"example-skill"}', "blockedNames: must be a list"],
    ['{"blockednames":["example-skill"]}', "blockednames: unknown field"],
    ['{"disabled":[{"name":"example-skill"}]}', "disabled[0]: needs name and layer"],
    ['{"disabled":[{"name":"x","layer":"moon"}]}', 'disabled[0]: unknown layer "moon"'],
    ['{"blockedNames":[', "not valid YAML (nor JSON)"],
  ])("refuses %s with one line naming the file and the problem", async (json, problem) => {
    const err = await load(json).then(
      () => null,
      (e: Error) => e.message,
    );
    expect(err).toContain("the policy file p.json was refused: ");
    expect(err).toContain(problem);
    expect(err).not.toContain("\n");
  });

  it("names a file it cannot read, and refuses a pipe or device before reading", async () => {
    await expect(policyFor(t.config, { file: "missing.json", cwd: t.base })).rejects.toThrow(`cannot read the policy file missing.json: ${path.join(t.base, "missing.json")} does not exist`);
    await expect(policyFor(t.config, { file: "/dev/zero", cwd: t.base })).rejects.toThrow("cannot read the policy file /dev/zero: /dev/zero is a device, not a regular file");
  });
});
