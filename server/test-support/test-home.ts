// One set-up for the tests of services and routers that work on a data home (a real SQLite file, real layer
// folders): a fresh home before each test, or once for the file, and after it the cached indexes closed (no
// watcher outlives the folder) and the home removed. A file's own hooks run inside these: its before hooks
// after the home exists, its after hooks before it goes (vitest runs after hooks in reverse order).
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { closeAllIndexes } from "../services/catalog/catalog";
import { skillsTestHome } from "../services/skills/test-support/skills";

/**
 * Registers the hooks and returns the home `make` builds (skillsTestHome, govHome, playgroundWorld). The object
 * stays the same for the whole file and takes the fields of each new home when the before hook runs, so
 * `h.db`, `h.dataHome`, `h.skill(...)` are read inside tests and hooks, never at the top of the file.
 */
export function useTestHome<T extends { cleanup(): unknown }>(make: () => T, opts: { once?: boolean } = {}): T {
  const home = {} as T;
  (opts.once ? beforeAll : beforeEach)(() => void Object.assign(home, make()));
  (opts.once ? afterAll : afterEach)(async () => {
    await closeAllIndexes();
    await home.cleanup();
  });
  return home;
}

/** useTestHome with the skills service's home (actors of each role, `ctx(actor)`). */
export const useSkillsTestHome = (opts: { once?: boolean } = {}) => useTestHome(skillsTestHome, opts);
