// A console's users over one shared catalog (#38): 600 skill folders copied from fixtures/real-skills into the
// enterprise layer (the load and servers benches' catalog), one index and one search per signed-in user, as the
// console keeps them. Measured: what each further user's index and search cost (CPU; the shared layers' entries and
// their analysed documents are taken from the users before), what one saved skill holds the server's thread for
// when every user's index takes it in (refreshAll), and the longest the timer's rescan of the layer folders holds
// the thread (in turns, as the console runs it) beside the same rescan in one go.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { rebuildInTurns } from "../../../server/runtime/registry";
import { searchReady } from "../../../server/runtime/search/follow";
import { resolveDataHome } from "../../../server/config";
import { closeAllIndexes, indexFor, refreshAll } from "../../../server/services/catalog/catalog";
import { fixtureSkillDirs, seedSkills } from "./load-seed";
import { median } from "./stats";

const USERS = 32;
const SAVES = 9;
const RESCANS = 7;
const r1 = (x: number) => Math.round(x * 10) / 10;
const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;

/** The longest stretch the thread was held while `work` ran: the gaps of a setImmediate chain. */
async function longestHold(work: () => Promise<unknown>): Promise<number> {
  let longest = 0;
  let last = performance.now();
  let done = false;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (!done) setImmediate(tick);
  };
  setImmediate(tick);
  await work();
  done = true;
  longest = Math.max(longest, performance.now() - last);
  return longest;
}

export async function consoleUsers(): Promise<Record<string, unknown>> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "of-bench-users-"));
  try {
    seedSkills(home, fixtureSkillDirs(), 600);
    fs.mkdirSync(path.join(home, "project"));
    const dataHome = resolveDataHome({ OMNIFORGE_HOME: home, OMNIFORGE_PROJECT_ROOT: path.join(home, "project") });
    const perUser: number[] = [];
    let first = 0;
    for (let i = 0; i < USERS; i++) {
      const c0 = process.cpuUsage();
      await searchReady(await indexFor(`user${i}`, dataHome));
      const cpu = cpuMs(process.cpuUsage(c0));
      if (i === 0) first = cpu;
      else perUser.push(cpu);
    }
    const saves: number[] = [];
    for (let k = 0; k < SAVES; k++) {
      const dir = path.join(home, "enterprise", "skills", `saved-${k}`);
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, "SKILL.md"), `---\nname: saved-${k}\ndescription: Saved skill ${k}. Use when measuring saves.\n---\n\n# Saved\n\n${"Steps to follow. ".repeat(100)}\n`);
      const t0 = performance.now();
      refreshAll([dir]);
      saves.push(performance.now() - t0);
    }
    const index = await indexFor("user0", dataHome);
    const inTurns: number[] = [];
    const inOneGo: number[] = [];
    for (let k = 0; k < RESCANS; k++) {
      inTurns.push(await longestHold(() => rebuildInTurns(index)));
      inOneGo.push(await longestHold(async () => index.rebuild()));
    }
    return {
      skills: index.entries().length,
      users: USERS,
      firstUserIndexAndSearchCpuMs: r1(first),
      furtherUserIndexAndSearchCpuMsMedian: r1(median(perUser)),
      oneSaveTakenInByEveryUserMsMedian: r1(median(saves)),
      oneSaveMsMax: r1(Math.max(...saves)),
      rescanLongestHoldMsMedian: { inTurns: r1(median(inTurns)), inOneGo: r1(median(inOneGo)) },
      loadAverage1m: r1(os.loadavg()[0]!),
    };
  } finally {
    await closeAllIndexes();
    fs.rmSync(home, { recursive: true, force: true });
  }
}
