// The demo seed on a fresh private data home: what it writes leaves the next start nothing to fix, so a second
// `npm start` does not greet the user with "data home was readable by others" about our own marker file.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { ensureDataHome, resolveDataHome, tightenDataHome } from "../../config";
import { seedDemoSkills } from "./seed";

let home: string;
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

it("seeds once, and the next start finds every file of the data home already private", () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "of-seed-"));
  const dh = resolveDataHome({ OMNIFORGE_HOME: home });
  expect(ensureDataHome(dh)).toEqual([]);
  expect(seedDemoSkills(dh, "admin-1")).toMatchObject({ seeded: true });
  expect(tightenDataHome(dh)).toEqual([]);
  expect(seedDemoSkills(dh, "admin-1")).toMatchObject({ seeded: false });
});
