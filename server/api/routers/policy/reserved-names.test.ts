// Reserved words in names (seed 003) through the API, as the console calls it: an admin's allowance is one policy
// change, audited, and every screen that judges the skill agrees on it: the editor's problem list and its Details
// hint, the skill list's validity, the layers page's counts and the import preview. A real SQLite file and real
// skill folders.
import fs from "node:fs";
import path from "node:path";
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import type { SessionUser } from "../../../auth";
import { govHome } from "../../../services/governance/test-support/governance";
import { useTestHome } from "../../../test-support/test-home";
import { callerFor } from "../../../test-support/caller";

const h = useTestHome(govHome);
const as = (role: SessionUser["role"]): SessionUser => ({ id: `${role}-id`, email: `${role}@x.io`, name: "", role });

describe("allowReservedNames", () => {
  it("switched on by an admin (audited), claude-helper is no error in the problem list, the skill list or the layers page", async () => {
    const dir = h.skill("project", "claude-helper");
    const text = fs.readFileSync(path.join(dir, "SKILL.md"), "utf8");
    const ref = { layer: "project" as const, skill: "claude-helper" };
    const admin = callerFor(h, as("admin"));
    const author = callerFor(h, as("author"));
    const seen = async () => {
      const check = await author.skill.check({ ref, text });
      const row = (await author.skill.list({ q: "claude-helper" })).rows.find((r) => r.name === "claude-helper");
      const info = await author.skill.info({ ref });
      const link = (await author.layers.explain({ name: "claude-helper" })).chain[0]!;
      // The import dialog's preview of the same folder as a zip (a dry run writes nothing).
      const zip = Buffer.from(zipSync({ "claude-helper/SKILL.md": strToU8(text) })).toString("base64");
      const preview = await author.skill.import({ layer: "personal", fileName: "claude-helper.zip", base64: zip, dryRun: true });
      return {
        problems: check.problems.filter((p) => p.severity === "error").map((p) => p.code),
        valid: check.valid,
        validity: row?.validity,
        infoValidity: info.validity,
        allowed: info.reservedNamesAllowed,
        errors: link.errors,
        status: row?.status,
        importValid: preview.valid,
        importProblems: preview.diagnostics.filter((d) => d.severity === "error").map((d) => d.code),
      };
    };
    expect(await seen()).toEqual({ problems: ["name.reserved"], valid: false, validity: "errors", infoValidity: "errors", allowed: false, errors: 1, status: "active", importValid: false, importProblems: ["name.reserved"] });

    // Only an admin may allow them.
    await expect(author.policy.change({ op: "setAllowReservedNames", allow: true })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await admin.policy.change({ op: "setAllowReservedNames", allow: true });
    expect((await admin.policy.get()).policy.allowReservedNames).toBe(true);
    expect(h.audit.events.filter((e) => e.type === "policy_changed").at(-1)).toMatchObject({
      actor: { id: "admin-id" },
      details: { change: { op: "setAllowReservedNames", allow: true }, after: { allowReservedNames: true }, changed: true },
    });
    expect(await seen()).toEqual({ problems: [], valid: true, validity: "ok", infoValidity: "ok", allowed: true, errors: 0, status: "active", importValid: true, importProblems: [] });

    // Off again: the error is back everywhere.
    await admin.policy.change({ op: "setAllowReservedNames", allow: false });
    expect((await admin.policy.get()).policy.allowReservedNames).toBeUndefined();
    expect((await seen()).problems).toEqual(["name.reserved"]);
  });
});
