import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, effectiveLimits, formatBytes } from "./limits";
import { signalName } from "./spawn-capped";

describe("limits", () => {
  it("has the documented defaults", () => {
    expect(DEFAULT_LIMITS).toEqual({
      wallMs: 30_000,
      cpuSeconds: 5,
      memoryBytes: 512 * 1024 * 1024,
      processes: 64,
      outputBytes: 1024 * 1024,
      fileBytes: 10 * 1024 * 1024,
    });
  });

  it("lets a request tighten but never loosen the runner's limits", () => {
    const l = effectiveLimits(DEFAULT_LIMITS, { wallMs: 1000, cpuSeconds: 500 }, true);
    expect(l.wallMs).toBe(1000);
    expect(l.cpuSeconds).toBe(5);
  });

  it("tightens memory and processes without a cgroup", () => {
    const l = effectiveLimits(DEFAULT_LIMITS, undefined, false);
    expect(l.memoryBytes).toBe(256 * 1024 * 1024);
    expect(l.processes).toBe(16);
  });

  it("rejects bad values with a clear message", () => {
    expect(() => effectiveLimits(DEFAULT_LIMITS, { wallMs: -1 }, true)).toThrow(/wallMs must be a positive number/);
    expect(() => effectiveLimits(DEFAULT_LIMITS, { bogus: 1 } as never, true)).toThrow(/unknown limit "bogus"/);
  });

  it("formats sizes and signal exit codes for people", () => {
    expect(formatBytes(1024 * 1024)).toBe("1 MiB");
    expect(formatBytes(1000)).toBe("1000 bytes");
    expect(signalName(137)).toBe("SIGKILL");
    expect(signalName(152)).toBe("SIGXCPU");
    expect(signalName(1)).toBeUndefined();
  });
});
