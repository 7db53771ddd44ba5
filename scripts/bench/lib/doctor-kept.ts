// The doctor's catalog report and health's index digest over a catalog of real skills, as the console serves them
// (#36/#38): `doctor.report` through the tRPC API (the real offload worker, a real SQLite file), first computed, then
// served from the copy kept for the unchanged catalog; beside it the way every call went before (the same
// doctorCatalog job in the worker on every call). And the digest health gives of the index: computed after the
// index's version moved (what every health request paid before) and kept (what an unchanged catalog costs now).
// Two catalogs: the 591 skills of fixtures/catalog installed as eight plugins (the search bench's), and 600 folders
// copied from fixtures/real-skills with their scripts (the load and heavy benches').
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SessionUser } from "../../../server/auth";
import { installCatalog } from "../../../server/runtime/search/catalog";
import { closeAllIndexes, indexFor, indexFreshness, pollIndexes } from "../../../server/services/catalog/catalog";
import { rivalsIn } from "../../../server/services/doctor";
import { offload } from "../../../server/services/offload/pool";
import { skillsTestHome } from "../../../server/services/skills/test-support/skills";
import { callerFor } from "../../../server/test-support/caller";
import { sharedDir } from "../../../server/test-support/needs";
import { fixtureSkillDirs, seedSkills } from "./load-seed";
import { median } from "./stats";

const KEPT_CALLS = 5;
const BEFORE_CALLS = 3;
const HEALTH_CALLS = 200;

const ms = (t0: number) => Math.round(performance.now() - t0);
const load = () => os.loadavg()[0]!.toFixed(1);

async function measure(fill: (home: string) => void): Promise<Record<string, unknown>> {
  const h = skillsTestHome();
  // The offload worker does not keep a process alive (the console's server does): this timer does, meanwhile.
  const alive = setInterval(() => {}, 1000);
  try {
    fill(h.dataHome.home);
    const admin: SessionUser = { id: "bench-admin", email: "bench@x.io", name: "", role: "admin" };
    const api = callerFor(h, admin);
    const loadBefore = load();
    let t0 = performance.now();
    const first = await api.doctor.report();
    const firstMs = ms(t0);
    const kept: number[] = [];
    for (let i = 0; i < KEPT_CALLS; i++) {
      t0 = performance.now();
      await api.doctor.report();
      kept.push(ms(t0));
    }
    const computedBefore = h.audit.events.filter((e) => e.type === "doctor_report" && e.details?.computed === true).length;

    // Before: every call ran the catalog's doctor job in the worker.
    const index = await indexFor(admin.id, h.dataHome);
    const dirs = first.skills.map((s) => index.entries().find((e) => e.name === s.name && e.layer === s.ref.layer)?.dir).filter((d): d is string => !!d);
    const every: number[] = [];
    for (let i = 0; i < BEFORE_CALLS; i++) {
      t0 = performance.now();
      await offload("doctorCatalog", dirs, { ignore: [], rivals: rivalsIn(index, dirs) });
      every.push(ms(t0));
    }

    // Health's digest: computed after the index's version moved (a rescan that found nothing still moves it), and kept.
    const computedDigest: number[] = [];
    for (let i = 0; i < 20; i++) {
      await pollIndexes(h.dataHome);
      t0 = performance.now();
      indexFreshness(h.dataHome);
      computedDigest.push(performance.now() - t0);
    }
    t0 = performance.now();
    for (let i = 0; i < HEALTH_CALLS; i++) indexFreshness(h.dataHome);
    const keptDigest = (performance.now() - t0) / HEALTH_CALLS;

    return {
      skills: first.skills.length,
      definitions: index.size,
      loadAverage: `${loadBefore}-${load()}`,
      report: {
        firstMs,
        keptMedianMs: median(kept),
        beforeEveryCallMedianMs: median(every),
        computations: computedBefore,
        calls: 1 + KEPT_CALLS,
      },
      healthDigest: { computedMedianMs: Math.round(median(computedDigest) * 100) / 100, keptMs: Math.round(keptDigest * 1000) / 1000 },
    };
  } finally {
    clearInterval(alive);
    await closeAllIndexes();
    h.cleanup();
  }
}

export async function doctorReportKept(): Promise<Record<string, unknown>> {
  const catalog = path.join(sharedDir, "fixtures", "catalog");
  if (!fs.existsSync(catalog)) return { skipped: `${catalog} is absent (set OMNIFORGE_SHARED_DIR)` };
  return {
    catalogAsPlugins: await measure((home) => void installCatalog(catalog, home)),
    realSkillsWithScripts: await measure((home) => void seedSkills(home, fixtureSkillDirs(), 600)),
  };
}
