import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { closeDb, openDb } from "../../db/client";

describe("the health report", () => {
  // It counted from the first request that loaded this module, so a console up for an hour reported 0 on its first check.
  it("gives the process's uptime, not the time since the report was first asked for", async () => {
    await new Promise((r) => setTimeout(r, 1600));
    const { healthReport } = await import("./health");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-health-"));
    const file = path.join(dir, "console.db");
    try {
      const report = healthReport(openDb(file));
      expect(report.status).toBe("ok");
      expect(report.uptimeSeconds).toBeGreaterThanOrEqual(2);
      expect(report.uptimeSeconds).toBeLessThanOrEqual(Math.round(process.uptime()));
    } finally {
      closeDb(file);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
