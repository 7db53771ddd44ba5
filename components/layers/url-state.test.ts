import { describe, expect, it } from "vitest";
import { readLayersUrl, writeLayersUrl } from "./url-state";

describe("layers URL state", () => {
  it("round-trips what a person set, leaving empty values out", () => {
    const s = { name: "code-review", environment: "production", overridden: true, q: "" };
    const url = writeLayersUrl(s);
    expect(url).toBe("?name=code-review&environment=production&overridden=1");
    expect(readLayersUrl(Object.fromEntries(new URLSearchParams(url.slice(1))))).toEqual({ name: "code-review", environment: "production", overridden: true });
    expect(writeLayersUrl({})).toBe("");
  });

  it("takes the first of repeated parameters and bounds lengths", () => {
    expect(readLayersUrl({ name: ["a", "b"], tenant: "x".repeat(500), overridden: "yes" })).toEqual({ name: "a", tenant: "x".repeat(200) });
  });
});
