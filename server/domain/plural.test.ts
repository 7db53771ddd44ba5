import { describe, expect, it } from "vitest";
import { count } from "./plural";

describe("count", () => {
  it("uses the plural rules, not 'n > 1'", () => {
    expect(count(1, "error")).toBe("1 error");
    expect(count(0, "error")).toBe("0 errors");
    expect(count(2, "warning")).toBe("2 warnings");
    expect(count(1200, "event")).toBe("1,200 events");
    expect(count(3, "query", "queries")).toBe("3 queries");
  });
});
