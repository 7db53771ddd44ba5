import { describe, expect, it } from "vitest";
import { sameSitePath } from "./redirect-target";

describe("sameSitePath (the page after sign-in)", () => {
  it("keeps a path of this site, with its query and fragment", () => {
    expect(sameSitePath("/skills/project/release-notes?tab=files#top")).toBe("/skills/project/release-notes?tab=files#top");
    expect(sameSitePath("/audit?range=24h&type=script_executed")).toBe("/audit?range=24h&type=script_executed");
  });

  it("sends anything that a browser would take to another site home instead", () => {
    for (const raw of ["//evil.example/x", "/\\evil.example/x", "/\\/evil.example", "\\\\evil.example", "/\t/evil.example", "/\n/evil.example", "https://evil.example", "javascript:alert(1)", "evil.example", "", undefined, null]) {
      expect([raw, sameSitePath(raw)]).toEqual([raw, "/"]);
    }
  });
});
