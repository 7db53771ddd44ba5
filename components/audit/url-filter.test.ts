import { describe, expect, it } from "vitest";
import { dateFieldValue, queryFilterToSearch, readUrlFilter, toQueryFilter, unreadableDates, writeUrlFilter } from "./url-filter";

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

  it("reads epoch milliseconds (the export link's form) and ignores what is no date, saying which", () => {
    const ms = String(Date.UTC(2026, 10, 20, 8, 30));
    expect(dateFieldValue(ms)).toBe("2026-11-20T08:30");
    expect(dateFieldValue("2026-05-01T00:00:00Z")).toBe("2026-05-01T00:00");
    for (const bad of ["abc", "99999999999999999", undefined]) expect(dateFieldValue(bad)).toBe("");
    expect(toQueryFilter({ from: ms }, now)).toEqual({ from: Number(ms) });
    // An unreadable from falls back to the range, as if it were absent.
    expect(toQueryFilter({ from: "abc", range: "1h" }, now)).toEqual({ from: now - 3_600_000, to: now + 1 });
    expect(unreadableDates({ from: "abc", to: ms })).toEqual([{ key: "from", value: "abc" }]);
    expect(unreadableDates({ from: ms, to: "99999999999999999" })).toEqual([{ key: "to", value: "99999999999999999" }]);
    expect(unreadableDates({})).toEqual([]);
  });

  it("writes the resolved filter for the export link", () => {
    expect(queryFilterToSearch({ from: 5, to: 9, type: "login" })).toBe("from=5&to=9&type=login");
  });
});
