import { describe, expect, it } from "vitest";
import { SkillSearch } from "./engine";

const skill = (name: string, description: string) => ({ id: name, name, description, nameText: name.replace(/-/g, " "), headings: "", tags: "", body: "" });

describe("SkillSearch: a typed word that begins a compound skill name", () => {
  it("finds the name it begins, says so, and follows names added and removed after earlier searches", () => {
    const s = new SkillSearch();
    s.upsert(skill("webmcpify", "Make a web app agent-ready with a tool manifest"));
    s.upsert(skill("web-design-reviewer", "Inspect a running website for design issues"));
    const first = s.search("webmcp for my shop");
    expect(first.hits[0]!.name).toBe("webmcpify");
    expect(first.hits[0]!.why).toMatch(/'webmcp' \(in 'webmcpifi'\)/);
    // Names added after a search are found by their beginning too; removed ones are not.
    s.upsert(skill("gridcraftify", "Lay out dashboards"));
    expect(s.search("gridcraft").hits.map((h) => h.name)).toEqual(["gridcraftify"]);
    s.remove("webmcpify");
    expect(s.search("webmcp").hits.map((h) => h.name)).toEqual([]);
  });
});
