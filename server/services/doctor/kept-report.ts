// The doctor's catalog report kept per state of what it reads (#36/#38): doctoring 600 real skills took ~7.5 s of
// the offload worker on every visit to /doctor, though the catalog had not changed. A report is kept under a key made
// of everything its findings depend on: the folders doctored, in order (a person's reach and tenants, the policy and
// the config decide which), each one's SKILL.md and scripts/ digests, its same-layer rival count, the doctor policy's
// silenced codes, and how many refreshes this server has taken in (a saved reference or any file the watcher or a
// rescan reports moves it, though no digest covers that file). Callers asking for the same key share one
// computation; a change makes a new key, computed at the next call. Each server keeps its own copies, as it keeps
// its own indexes: a change seen by another server reaches this one through its watcher or rescan, as the index does.
import { createHash } from "node:crypto";
import type { CatalogReport } from "../../runtime/doctor";
import type { SkillEntry } from "../../runtime/registry";
import { processWide } from "../../process-wide";
import { onRefreshAll } from "../catalog/catalog";
import type { DoctorJobOptions } from "../offload/jobs";
import { offload } from "../offload/pool";

// A few sets of folders at once (people whose reach differs, a tenant each); a 600-skill report is a few MB.
const KEPT = 8;

interface KeptReports {
  /** Grows with every refresh this server takes in. */
  refreshes: number;
  /** By key, most recently used last: the report, or its computation while it runs. */
  reports: Map<string, Promise<CatalogReport>>;
}

const state = processWide<KeptReports>("doctorReports", () => {
  const s: KeptReports = { refreshes: 0, reports: new Map() };
  onRefreshAll(() => {
    s.refreshes++;
    // Every key made before holds the old count: none can be asked for again.
    s.reports.clear();
  });
  return s;
});

function keyOf(refreshes: number, entries: readonly SkillEntry[], opts: DoctorJobOptions): string {
  const hash = createHash("sha256").update(`${refreshes}\n${JSON.stringify(opts.ignore ?? [])}\n`);
  for (const e of entries) hash.update(`${e.dir}\u0000${e.digest}\u0000${e.scripts?.digest ?? ""}\u0000${opts.rivals?.[e.dir] ?? ""}\n`);
  return hash.digest("hex");
}

/**
 * doctorCatalog over `entries`' folders, in the offload worker, or the copy kept for the same inputs. `computed`:
 * whether this call started the computation (false when it was kept or another caller's was under way).
 */
export async function keptCatalogReport(entries: readonly SkillEntry[], opts: DoctorJobOptions): Promise<{ report: CatalogReport; computed: boolean }> {
  const s = state();
  const key = keyOf(s.refreshes, entries, opts);
  const kept = s.reports.get(key);
  if (kept) {
    s.reports.delete(key);
    s.reports.set(key, kept);
    return { report: await kept, computed: false };
  }
  const computing = offload(
    "doctorCatalog",
    entries.map((e) => e.dir),
    opts,
  );
  s.reports.set(key, computing);
  // A failed computation (the worker stopped) is not kept: the next call tries again.
  computing.catch(() => {
    if (s.reports.get(key) === computing) s.reports.delete(key);
  });
  while (s.reports.size > KEPT) s.reports.delete(s.reports.keys().next().value!);
  return { report: await computing, computed: true };
}
