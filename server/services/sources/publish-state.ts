// The Sources page's view of the marketplace publication: the last `omniforge publish marketplace` of this data home
// (where, when, the commit, each plugin's version) and what the catalog serves differently since, resolved with the
// context the publication used and the console's policy, as the command resolves it. The hashing of every published
// skill runs in the offload worker.
import type { DataHome } from "../../config";
import { publishDrift, readPublishRecord, selectPublished, type PublishDrift, type PublishRecord } from "../../runtime/sources/publish-record";
import { indexFor } from "../catalog/catalog";
import { offload } from "../offload/pool";
import { effectivePolicy } from "../policy/store";
import { configContextFor } from "../skills-config";
import type { Db } from "../../../db/client";

export interface PublishState {
  last: (Omit<PublishRecord, "plugins"> & { plugins: { name: string; version: string; skills: number }[] }) | null;
  /** What a publication now would change; null when nothing was published yet. */
  since: PublishDrift | null;
}

export async function publishState(db: Db, dataHome: DataHome): Promise<PublishState> {
  const rec = readPublishRecord(dataHome.home);
  if (!rec) return { last: null, since: null };
  const index = await indexFor(null, dataHome);
  const ctx = { ...rec.context, policy: await effectivePolicy(db, {}), ...configContextFor(dataHome.home, dataHome.projectRoot) };
  const now = await offload("skillDigests", selectPublished(index, ctx, dataHome.home));
  return {
    last: { ...rec, plugins: rec.plugins.map((p) => ({ name: p.name, version: p.version, skills: Object.keys(p.skills).length })) },
    since: publishDrift(rec, now),
  };
}
