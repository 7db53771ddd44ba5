import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { profileParts } from "./profile-parts";

describe("a CPU profile read as a turn's parts", () => {
  it("credits each sample to every part on its stack, and counts only the samples inside the window", () => {
    const frame = (functionName: string, url = "") => ({ functionName, url, lineNumber: 0, columnNumber: 0 });
    const profile = {
      nodes: [
        { id: 1, callFrame: frame("(root)"), children: [2, 4] },
        { id: 2, callFrame: frame("rank", "file:///repo/server/runtime/search/engine.ts"), children: [3] },
        { id: 3, callFrame: frame("query", "file:///repo/node_modules/pg/lib/client.js") },
        { id: 4, callFrame: frame("(idle)") },
      ],
      startTime: 1_000_000,
      // Samples at +10, +20, +30 and +40 ms; the window ends at +35 ms, so the last one (in the ranking) is left out.
      samples: [3, 2, 4, 2],
      timeDeltas: [10_000, 10_000, 10_000, 10_000],
    };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "profile-parts-"));
    try {
      const file = path.join(dir, "x.cpuprofile");
      fs.writeFileSync(file, JSON.stringify(profile));
      const r = profileParts(file, { from: 1_000_000, to: 1_035_000 });
      expect(r).toMatchObject({ sampledMs: 30, busyMs: 20 });
      expect(r.parts["ranking (runtime/search)"]).toBe(20);
      expect(r.parts["database driver (drizzle, pg)"]).toBe(10);
      expect(r.parts["idle"]).toBe(10);
      expect(r.parts["audit (services/audit)"]).toBe(0);
      expect(r.selfMsByFile).toEqual([
        { where: "node_modules/pg/lib/client.js", ms: 10 },
        { where: "server/runtime/search/engine.ts", ms: 10 },
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
