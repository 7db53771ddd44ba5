// Where a checked-out commit's skill folders are: the source's sub-path for a plain repository.
import path from "node:path";
import type { SourceRecord, SourceRoot } from "./state";

/** The roots of `rec`'s pinned commit, laid out at `checkout`, relative to <home>/sources/<name>/. */
export function layoutOf(_home: string, rec: SourceRecord, checkout: string): SourceRoot[] {
  return [{ dir: path.join(path.basename(checkout), rec.path) }];
}
