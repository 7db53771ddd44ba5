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
  it("is null without a console.db, and the stored policy with approvals when there is one", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "of-home-"));
    cleanups.push(() => fs.rmSync(empty, { recursive: true, force: true }));
    expect(await policyFromHome(empty)).toBeNull();

    const t = tempDb();
    cleanups.push(t.cleanup);
    await changePolicy(t.db, { op: "block", name: "git-helper" }, { audit: new MemoryAuditSink(), actor: { id: "a" } });
    await changePolicy(t.db, { op: "setRequireApproval", scripts: true }, { audit: new MemoryAuditSink(), actor: { id: "a" } });
    expect(await policyFromHome(t.dir)).toMatchObject({ blockedNames: ["git-helper"], requireApprovalForScripts: true, approvedDigests: {} });
  });

  it("a file that is not a database gives a readable error", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "of-home-"));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    fs.writeFileSync(path.join(dir, "console.db"), "not sqlite at all, just text".repeat(10));
    await expect(policyFromHome(dir)).rejects.toThrow(/cannot read the console policy/);
  });
});
