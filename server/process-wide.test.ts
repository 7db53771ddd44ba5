// One helper for process-wide singletons (#13): Next evaluates a module once per bundle, so a value kept in a
// module variable would exist several times; processWide keeps it on globalThis instead, and nothing else may.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { processWide } from "./process-wide";

import { repoRoot as repo, sourceFiles } from "./test-support/source-files";

describe("processWide", () => {
  it("makes the value once and hands the same one to every caller", () => {
    const make = vi.fn(() => ({ n: 1 }));
    const get = processWide("test:once", make);
    expect(get()).toBe(get());
    expect(processWide("test:once", () => ({ n: 2 }))()).toBe(get());
    expect(make).toHaveBeenCalledTimes(1);
  });

  it("shares the value with a second copy of the module, as Next's bundles load it", async () => {
    const first = processWide("test:copies", () => new Map<string, number>())();
    vi.resetModules();
    const copy = (await import("./process-wide?copy" as string)) as typeof import("./process-wide");
    expect(copy.processWide("test:copies", () => new Map<string, number>())()).toBe(first);
  });

  it("is the only place that keeps state on globalThis by hand", () => {
    const files = ["app", "components", "db", "scripts", "server"].flatMap((d) => sourceFiles(d, { tests: false }));
    expect(files.length).toBeGreaterThan(100);
    const handWritten = files.filter((f) => f !== path.join("server", "process-wide.ts") && /globalThis as unknown as \{/.test(fs.readFileSync(path.join(repo, f), "utf8")));
    expect(handWritten).toEqual([]);
  });
});
