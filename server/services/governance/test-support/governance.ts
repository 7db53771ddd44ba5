// For governance tests: a real SQLite database and a real data home with layer folders in a temp dir.
// Indexes are built without watchers (OMNIFORGE_WATCH=0); tests call touch() after writing, as the console does.
import path from "node:path";
import { ensureDataHome, resolveDataHome, type DataHome } from "../../../config";
import { MemoryAuditSink } from "../../../runtime/audit/events";
import type { LayerName } from "../../../runtime/registry";
import { writeSkill, type SkillSpec } from "../../../runtime/registry/test-support/registry";
import { closeAllIndexes, refreshAll } from "../../catalog/catalog";
import { tempDb } from "../../../test-support/temp-db";
import type { Viewer } from "../context";

process.env.OMNIFORGE_WATCH = "0";

export interface GovHome {
  db: ReturnType<typeof tempDb>["db"];
  dataHome: DataHome;
  audit: MemoryAuditSink;
  admin: Viewer & { email: string };
  author: Viewer & { email: string };
  viewer: Viewer & { email: string };
  /** Writes <layer root>/<name>/SKILL.md (+ scripts) and refreshes the cached indexes. */
  skill(layer: LayerName, name: string, spec?: SkillSpec & { userId?: string; plugin?: string; rel?: string }): string;
  root(layer: LayerName, opts?: { userId?: string; plugin?: string }): string;
  cleanup(): Promise<void>;
}

export function govHome(): GovHome {
  const t = tempDb();
  const dataHome = resolveDataHome({ ...process.env, OMNIFORGE_HOME: t.dir, OMNIFORGE_PROJECT_ROOT: "" });
  ensureDataHome(dataHome);
  const root = (layer: LayerName, opts: { userId?: string; plugin?: string } = {}) => {
    switch (layer) {
      case "enterprise":
        return path.join(dataHome.home, "enterprise", "skills");
      case "personal":
        return path.join(dataHome.home, "users", opts.userId ?? "admin-id", "skills");
      case "project":
        return path.join(dataHome.projectRoot, ".omniforge", "skills");
      case "plugin":
        return path.join(dataHome.home, "plugins", opts.plugin ?? "tools", "skills");
    }
  };
  return {
    db: t.db,
    dataHome,
    audit: new MemoryAuditSink(),
    admin: { id: "admin-id", role: "admin", email: "admin@x.io" },
    author: { id: "author-id", role: "author", email: "author@x.io" },
    viewer: { id: "viewer-id", role: "viewer", email: "viewer@x.io" },
    root,
    skill(layer, name, spec = {}) {
      const dir = writeSkill(root(layer, spec), name, spec);
      refreshAll([dir]);
      return dir;
    },
    async cleanup() {
      await closeAllIndexes();
      t.cleanup();
    },
  };
}
