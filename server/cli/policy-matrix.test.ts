// One policy everywhere (issue #14 item 1): one matrix of cases, each a policy change made in the console and the
// state every definition must then have, checked through the console's tRPC router AND the CLI (`omniforge skill
// list --json`, the real bin, on the same data home). They cannot drift: both read one matrix (also used by the
// catalog API's test, server/http/catalog-matrix.test.ts).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { callerFor } from "../test-support/caller";
import type { SessionUser } from "../auth";
import { useSkillsTestHome } from "../test-support/test-home";
import { applyCase, MATRIX, writeMatrixSkills } from "../test-support/policy-matrix";

const h = useSkillsTestHome({ once: true });
const repo = path.resolve(import.meta.dirname, "../..");
const admin: SessionUser = { id: "admin-1", email: "admin@x.io", name: "", role: "admin" };

function cliStates(): Map<string, string> {
  const r = spawnSync(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "skill", "list", "--json", "--home", h.dh.home, "--project", h.dh.projectRoot, "--user", admin.id], {
    encoding: "utf8",
    env: { ...process.env, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "" },
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(0);
  const rows = JSON.parse(r.stdout) as { name: string; layer: string; status: string }[];
  return new Map(rows.map((x) => [`${x.name}@${x.layer}`, x.status]));
}

async function consoleStates(): Promise<Map<string, string>> {
  const list = await callerFor(h, admin).skill.list({ limit: 500 });
  return new Map(list.rows.map((x) => [`${x.name}@${x.layer}`, x.status]));
}

beforeAll(() => {
  writeMatrixSkills(h.dh);
  fs.chmodSync(h.dir, 0o700);
});

describe("one policy, console and CLI", () => {
  for (const c of MATRIX) {
    it(`${c.title}: the console and the CLI agree with the matrix`, async () => {
      await applyCase(callerFor(h, admin).policy, c, h.dh.home);
      const [viaConsole, viaCli] = [await consoleStates(), cliStates()];
      for (const [key, state] of Object.entries(c.expect)) {
        expect(viaConsole.get(key), `console: ${key}`).toBe(state);
        expect(viaCli.get(key), `cli: ${key}`).toBe(state);
      }
    });
  }

  it("agent run on the same home never offers or activates a skill the console blocked", async () => {
    const policy = callerFor(h, admin).policy;
    const run = () => {
      const r = spawnSync(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "agent", "run", "use csv-insights on this CSV file", "--json", "--home", h.dh.home, "--project", h.dh.projectRoot], {
        encoding: "utf8",
        env: { ...process.env, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "", OMNIFORGE_PROVIDER: "" },
        timeout: 60_000,
      });
      const events = r.stdout.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as { type: string; skill?: string; listing?: { described: string[]; nameOnly: string[] } });
      return { activated: events.filter((e) => e.type === "skill_activated").map((e) => e.skill), listed: events.find((e) => e.type === "run_started")?.listing };
    };
    await policy.change({ op: "unblock", name: "csv-insights" });
    expect(run().activated).toContain("csv-insights");
    await policy.change({ op: "block", name: "csv-insights" });
    const blocked = run();
    expect(blocked.activated).not.toContain("csv-insights");
    expect([...(blocked.listed?.described ?? []), ...(blocked.listed?.nameOnly ?? [])]).not.toContain("csv-insights");
  });

  it("config.yaml applies alike: a name in disabled_skills is disabled for the console and the CLI; a wrong key stops the CLI naming it", async () => {
    const policy = callerFor(h, admin).policy;
    await policy.change({ op: "unblock", name: "csv-insights" });
    const file = path.join(h.dh.projectRoot, ".omniforge", "config.yaml");
    fs.writeFileSync(file, "disabled_skills: [csv-insights]\n");
    try {
      expect((await consoleStates()).get("csv-insights@project")).toBe("disabled");
      expect(cliStates().get("csv-insights@project")).toBe("disabled");
      fs.writeFileSync(file, "skills:\n  enable: false\n");
      const r = spawnSync(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "skill", "list", "--home", h.dh.home, "--project", h.dh.projectRoot], { encoding: "utf8" });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain("skills.enable: unknown key");
    } finally {
      fs.rmSync(file, { force: true });
    }
  });
});
