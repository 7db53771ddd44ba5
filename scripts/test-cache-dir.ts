// The unit tests' global setup: the CLIs they start keep their listing caches (server/runtime/registry/
// listing-cache.ts) in a folder of this test run, not in the person's ~/.cache. vitest.config.ts names the folder
// (OMNIFORGE_CACHE_DIR in the tests' environment); this removes it when the run ends.
import fs from "node:fs";
import type { TestProject } from "vitest/node";

export default function setup(project: TestProject): () => void {
  const dir = project.config.env.OMNIFORGE_CACHE_DIR;
  return () => {
    if (typeof dir === "string" && dir) fs.rmSync(dir, { recursive: true, force: true });
  };
}
