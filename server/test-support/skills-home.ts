// One set-up for the tests of services and routers that work on a skills home: a fresh data home (a real SQLite
// file, real layer folders) before each test, or once for the file, and after it the cached indexes closed (no
// watcher outlives the folder) and the folder removed. A file's own hooks run inside these: its before hooks
// after the home exists, its after hooks before it goes (vitest runs after hooks in reverse order).
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { closeAllIndexes } from "../services/catalog/catalog";
import { skillsTestHome } from "../services/skills/test-support";

export type SkillsTestHome = ReturnType<typeof skillsTestHome>;

/**
 * Registers the hooks and returns the home. The object stays the same for the whole file and takes the fields of
 * each new home when the before hook runs, so `h.db`, `h.dh`, `h.ctx(...)` are read inside tests and hooks.
 */
export function useSkillsTestHome(opts: { once?: boolean } = {}): SkillsTestHome {
  const home = {} as SkillsTestHome;
  (opts.once ? beforeAll : beforeEach)(() => void Object.assign(home, skillsTestHome()));
  (opts.once ? afterAll : afterEach)(async () => {
    await closeAllIndexes();
    home.cleanup();
  });
  return home;
}
