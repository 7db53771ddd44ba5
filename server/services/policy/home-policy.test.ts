import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryAuditSink } from "../../runtime/audit/events";
import { tempDb } from "../../test-support/temp-db";
import { changePolicy } from "../governance/policy-change";
import { policyFromHome } from "./home-policy";

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((f) => f()));

describe("policyFromHome (the CLI's view of the console policy)", () => {
  it("is null without a console.db, and the stored policy with approvals when there is one", () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "of-home-"));
    cleanups.push(() => fs.rmSync(empty, { recursive: true, force: true }));
    expect(policyFromHome(empty)).toBeNull();

    const t = tempDb();
    cleanups.push(t.cleanup);
    changePolicy(t.db, { op: "block", name: "git-helper" }, { audit: new MemoryAuditSink(), actor: { id: "a" } });
    changePolicy(t.db, { op: "setRequireApproval", scripts: true }, { audit: new MemoryAuditSink(), actor: { id: "a" } });
    expect(policyFromHome(t.dir)).toMatchObject({ blockedNames: ["git-helper"], requireApprovalForScripts: true, approvedDigests: {} });
  });

  it("a file that is not a database gives a readable error", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "of-home-"));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    fs.writeFileSync(path.join(dir, "console.db"), "not sqlite at all, just text".repeat(10));
    expect(() => policyFromHome(dir)).toThrow(/cannot read the console policy/);
  });
});
