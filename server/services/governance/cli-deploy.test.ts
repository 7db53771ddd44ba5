// The CLI's deploy honours the console's policy and writes its audit event into the console's chain (the database
// the command opened: server/cli/console-db.ts).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeLayerConfig } from "../../runtime/registry";
import { listEvents } from "../audit";
import { cliDeploy, formatPreview } from "./cli-deploy";
import { changePolicy } from "./policy-change";
import { govHome } from "./test-support/governance";
import { useTestHome } from "../../test-support/test-home";

const h = useTestHome(govHome);

const config = () => makeLayerConfig({ home: h.dataHome.home, projectRoot: h.dataHome.projectRoot });
const console_ = () => ({ db: h.db, where: h.dataHome.dbFile });

describe("cliDeploy", () => {
  it("previews with the console policy: a blocked name changes nothing, and says why", async () => {
    h.skill("project", "git-helper");
    await changePolicy(h.db, { op: "block", name: "git-helper" }, { audit: h.audit, actor: { id: "admin-id" } });
    await expect(cliDeploy(config(), "git-helper", "enterprise", { dryRun: true, console: console_() })).rejects.toThrow(/no active definition to copy/);
    const out = await cliDeploy(config(), "git-helper", "enterprise", { dryRun: true, fromLayer: "project", console: console_() });
    expect(out.policyFrom).toBe(h.dataHome.dbFile);
    expect(out.preview.rows[0]).toMatchObject({ before: null, after: null, changes: false, copyStatus: "blocked" });
    expect(formatPreview(out.preview)).toMatch(/no agent's resolution changes:\n {4}default .*: nothing -> nothing {2}\[copy: blocked by policy/);
    expect(fs.existsSync(path.join(h.root("enterprise"), "git-helper"))).toBe(false);
  });

  it("deploys and records skill_deployed in the console's audit chain", async () => {
    h.skill("project", "data-handling", { extra: "scope:\n  environments: [production]" });
    const out = await cliDeploy(config(), "data-handling", "enterprise", { fromLayer: "project", console: console_() });
    // Scoped to production: a caller naming no environment is served by neither copy (#14 §4).
    expect(out.result?.message).toMatch(/out of scope: limited to environments \[production\] and this context names no environment/);
    expect(out.auditTo).toBe(h.dataHome.dbFile);
    expect(formatPreview(out.preview)).toContain("* environment=production: project -> enterprise (the copy)");
    const events = (await listEvents(h.db, { type: "skill_deployed" }, { kind: "all" })).events;
    expect(events.map((e) => [e.skill, e.layer, e.actorId])).toEqual([["data-handling", "enterprise", "cli"]]);
  });

  it("without the console's database no policy applies and the event stays in memory", async () => {
    h.skill("project", "x");
    await changePolicy(h.db, { op: "block", name: "x" }, { audit: h.audit, actor: { id: "admin-id" } });
    const out = await cliDeploy(config(), "x", "enterprise", {});
    expect([out.policyFrom, out.auditTo, out.events.map((e) => e.type)]).toEqual([null, "memory", ["skill_deployed"]]);
  });
});
