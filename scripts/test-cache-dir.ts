// Where the CLIs started by unit tests keep their listing caches (server/runtime/registry/listing-cache.ts): a
// folder of this test run, not the person's ~/.cache, removed when the run ends. vitest.config.ts sets
// OMNIFORGE_CACHE_DIR to it for the tests, and runs this file's teardown.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** The test run's cache folder (vitest's main process id names it, so the config and the teardown agree). */
export const testCacheDir = (): string => path.join(os.tmpdir(), `omniforge-test-cache-${process.pid}`);

export default function setup(): () => void {
  return () => fs.rmSync(testCacheDir(), { recursive: true, force: true });
}
