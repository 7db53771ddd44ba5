import { describe, expect, it } from "vitest";
import { queryFilterToSearch, readUrlFilter, toQueryFilter, writeUrlFilter } from "./url-filter";

describe("URL filters", () => {
  const now = Date.UTC(2026, 5, 1);

  it("round-trips through the query string and leaves defaults out", () => {
    const f = readUrlFilter(new URLSearchParams("range=24h&type=login&skill=&user=u1&junk=x"));
    expect(f).toEqual({ range: "24h", type: "login", user: "u1" });
    expect(writeUrlFilter(f)).toBe("range=24h&type=login&user=u1");
    expect(writeUrlFilter({ range: "7d", outcome: "refused" }, { view: "violations" })).toBe("outcome=refused&view=violations");
  });

  it("resolves a range against a fixed now, and explicit dates win", () => {
    expect(toQueryFilter({}, now)).toEqual({ from: now - 7 * 86_400_000, to: now + 1 });
    expect(toQueryFilter({ range: "all", type: "login" }, now)).toEqual({ to: now + 1, type: "login" });
    expect(toQueryFilter({ range: "1h", from: "2026-05-01T00:00:00Z" }, now)).toEqual({ from: Date.UTC(2026, 4, 1) });
    expect(toQueryFilter({ outcome: "maybe" }, now).outcome).toBeUndefined();
  });

  it("writes the resolved filter for the export link", () => {
    expect(queryFilterToSearch({ from: 5, to: 9, type: "login" })).toBe("from=5&to=9&type=login");
  });
});

describe("URL filter keys", () => {
  it("are the audit service's filter fields plus the range, in the schema's order", async () => {
    const { auditFilterSchema } = await import("~/server/services/audit/filter");
    const { FILTER_KEYS } = await import("./url-filter");
    expect([...FILTER_KEYS]).toEqual(["range", ...Object.keys(auditFilterSchema.shape)]);
  });
});
