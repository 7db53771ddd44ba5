// The 591-skill catalog (shared/fixtures/catalog) installed as real catalogs are: one plugin per source repository
// (<home>/plugins/<owner>__<repo>/skills/... + plugin.json), so names repeated across repositories (several
// `skill-creator`, `brand-guidelines`) resolve as they would for a user. Used by the accuracy test and the bench.
import fs from "node:fs";
import path from "node:path";
import { findSkillDirs } from "../skill";

/** Installs every repository folder of `catalog` as a plugin under `home`. Returns the plugin names. */
export function installCatalog(catalog: string, home: string): string[] {
  const repos = fs
    .readdirSync(catalog, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith("."))
    .map((d) => d.name)
    .sort();
  repos.forEach((repo, i) => {
    const plugin = path.join(home, "plugins", repo);
    for (const dir of findSkillDirs(path.join(catalog, repo), { maxDepth: 8 })) {
      const to = path.join(plugin, "skills", path.relative(path.join(catalog, repo), dir));
      fs.mkdirSync(to, { recursive: true });
      fs.copyFileSync(path.join(dir, "SKILL.md"), path.join(to, "SKILL.md"));
    }
    // Install times one second apart, in name order: ties between plugins break the same way every run.
    const installedAt = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
    fs.writeFileSync(path.join(plugin, "plugin.json"), JSON.stringify({ name: repo, installedAt, source: `catalog:${repo}` }) + "\n");
  });
  return repos;
}

/** Where a catalog-relative skill folder ("<owner>__<repo>/<path>") is once installed under `home`. */
export function installedDir(home: string, rel: string): string {
  const [repo, ...rest] = rel.split("/");
  return path.join(home, "plugins", repo!, "skills", ...rest);
}
