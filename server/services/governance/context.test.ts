import { describe, expect, it } from "vitest";
import { displayPath, ownerOf } from "./context";

const places = { home: "/srv/omniforge", projectRoot: "/work/acme" };

describe("displayPath", () => {
  it("names the project and the data home without the machine's prefix, a folder named ..build included", () => {
    expect(displayPath("/work/acme/.claude/skills/pdf", places)).toBe("<project>/.claude/skills/pdf");
    expect(displayPath("/work/acme/..build/skills/pdf", places)).toBe("<project>/..build/skills/pdf");
    expect(displayPath("/srv/omniforge/plugins/kit/skills/pdf", places)).toBe("<home>/plugins/kit/skills/pdf");
    expect(displayPath("/work/acme-old/skills/pdf", places)).toBe("/work/acme-old/skills/pdf");
    expect(displayPath("/work/acme/../other/skills/pdf", places)).toBe("/work/acme/../other/skills/pdf");
  });
});

describe("ownerOf", () => {
  it("is the user whose personal layer holds the entry, a name beginning with two dots included", () => {
    expect(ownerOf({ layer: "personal", root: "/srv/omniforge/users/ana/skills" }, places)).toBe("ana");
    expect(ownerOf({ layer: "personal", root: "/srv/omniforge/users/..ana/skills" }, places)).toBe("..ana");
    expect(ownerOf({ layer: "personal", root: "/srv/omniforge/users/../skills" }, places)).toBeNull();
    expect(ownerOf({ layer: "project", root: "/srv/omniforge/users/ana/skills" }, places)).toBeNull();
  });
});
