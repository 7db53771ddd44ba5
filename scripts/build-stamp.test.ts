// `npm start` after a `git pull` must not serve the old build: the start script's stale-build check, on a
// throw-away project with a (fake) .next build folder.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildInputs, recordBuild, snapshotInputs, staleBuild } from "./build-stamp";

let repo: string;
const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
  fs.writeFileSync(path.join(repo, rel), text);
};
/** A distinct mtime, whatever the timestamp granularity of the file system. */
const touch = (rel: string, secondsAgo: number) => {
  const t = new Date(Date.now() - secondsAgo * 1000);
  fs.utimesSync(path.join(repo, rel), t, t);
};
/** What the start script does after a successful `next build`. */
const built = () => {
  fs.mkdirSync(path.join(repo, ".next"), { recursive: true });
  const inputs = snapshotInputs(repo);
  fs.writeFileSync(path.join(repo, ".next", "BUILD_ID"), "build-1");
  recordBuild(repo, inputs);
};

beforeAll(() => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), "of-build-stamp-"));
  write("package.json", "{}");
  write("package-lock.json", '{"lockfileVersion":3}');
  write("next.config.ts", "export default {};\n");
  write("app/page.tsx", "export default function Page() { return null; }\n");
  write("server/services/thing.ts", "export const thing = 1;\n");
  write("server/services/thing.test.ts", "// a test\n");
  write("server/runtime/README.md", "# notes\n");
  write("db/migrations/0001_init.sql", "CREATE TABLE t (id INTEGER);\n");
  write("components/ui/button.tsx", "export const Button = () => null;\n");
});
afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));

describe("stale build detection (scripts/start.ts)", () => {
  it("takes the sources, configuration and lockfile as inputs; not tests, notes or migrations", () => {
    expect(buildInputs(repo)).toEqual(["app/page.tsx", "components/ui/button.tsx", "next.config.ts", "package-lock.json", "package.json", "server/services/thing.ts"]);
  });

  it("no build yet, or a build without a record of its sources: build", () => {
    expect(staleBuild(repo)).toBe("no production build yet");
    fs.mkdirSync(path.join(repo, ".next"), { recursive: true });
    fs.writeFileSync(path.join(repo, ".next", "BUILD_ID"), "old");
    expect(staleBuild(repo)).toBe("the build has no record of the sources it was made from");
  });

  it("a fresh build is kept", () => {
    built();
    expect(staleBuild(repo)).toBeNull();
  });

  it("a source changed by a pull: rebuild, naming the file", () => {
    write("server/services/thing.ts", "export const thing = 2;\n");
    touch("server/services/thing.ts", 5);
    expect(staleBuild(repo)).toBe("the sources are newer than the build (changed since the build: server/services/thing.ts)");
    built();
    expect(staleBuild(repo)).toBeNull();
  });

  it("the lockfile changed (new dependency versions): rebuild", () => {
    write("package-lock.json", '{"lockfileVersion":3,"packages":{}}');
    expect(staleBuild(repo)).toContain("changed since the build: package-lock.json");
    built();
  });

  it("a new file and a deleted one: rebuild", () => {
    write("app/new/page.tsx", "export default function New() { return null; }\n");
    fs.rmSync(path.join(repo, "components/ui/button.tsx"));
    expect(staleBuild(repo)).toBe("the sources are newer than the build (new: app/new/page.tsx; removed: components/ui/button.tsx)");
    built();
  });

  it("same content with a new mtime (a checkout): no rebuild, and the record is updated", () => {
    touch("app/page.tsx", 60);
    expect(staleBuild(repo)).toBeNull();
    const stamp = JSON.parse(fs.readFileSync(path.join(repo, ".next", "omniforge-build.json"), "utf8")) as { inputs: [string, number][] };
    expect(stamp.inputs.find((i) => i[0] === "app/page.tsx")![1]).toBe(fs.statSync(path.join(repo, "app/page.tsx")).mtimeMs);
  });

  it("changes to tests, notes and migrations do not rebuild", () => {
    write("server/services/thing.test.ts", "// another test\n");
    write("server/runtime/README.md", "# more notes\n");
    write("db/migrations/0002_more.sql", "SELECT 1;\n");
    expect(staleBuild(repo)).toBeNull();
  });
});
