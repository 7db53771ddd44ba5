import { describe, expect, it } from "vitest";
import { splitLead } from "./preamble";
import { SkillSearch } from "./engine";

describe("splitLead: the ask after a message's lead-in", () => {
  it("cuts short social and topic-turn sentences off the start, and nothing else", () => {
    expect(splitLead("thanks, that worked. next thing on my list: my jest mocks leak between files")).toEqual({
      lead: "thanks, that worked. next thing on my list: ",
      ask: "my jest mocks leak between files",
    });
    expect(splitLead("sorry for the long message, it's been a week. I want several viewpoints on a job offer").ask).toBe("I want several viewpoints on a job offer");
    expect(splitLead("thanks for yesterday! unrelated: how do I merge two pdfs").ask).toBe("how do I merge two pdfs");
    // An error after a colon is the ask itself, and so is a first sentence that does not open with a cue.
    for (const message of ["TypeError: cannot read properties of undefined", "ok so the build fails with: exit code 137", "My tests fail together. They pass alone.", "thanks!"]) {
      expect(splitLead(message), message).toEqual({ lead: "", ask: message });
    }
    // A long sentence is not a lead-in, even when it opens with one of the words.
    const long = "thanks to the new release our nightly export job now writes empty csv files for every tenant. what changed";
    expect(splitLead(long).lead).toBe("");
  });

  it("reads a message of 100 times the usual length in one pass", () => {
    const huge = "ok. ".repeat(2_000) + "merge these pdfs ".repeat(2_000);
    const { lead, ask } = splitLead(huge);
    expect(lead.length + ask.length).toBe(huge.length);
    expect(ask.startsWith("merge these pdfs")).toBe(true);
  });
});

describe("SkillSearch: a lead-in does not choose the skill", () => {
  const skill = (name: string, description: string) => ({ id: name, name, description, nameText: name.replace(/-/g, " "), headings: "", tags: "", body: "" });

  it("ranks the skill of the ask first when the lead-in's words name another, and says where those words came from", () => {
    const s = new SkillSearch();
    s.upsert(skill("weekly-report", "Write the weekly status report for the team from the week's tickets"));
    s.upsert(skill("jest-mocks", "Fix Jest module mocks that leak between test files"));
    s.upsert(skill("pdf-merge", "Merge several PDF files into one"));
    const r = s.search("following up on the weekly report tickets from this week: mocks leak");
    expect(r.hits[0]!.name).toBe("jest-mocks");
    const report = r.hits.find((h) => h.name === "weekly-report")!;
    expect(report.why).toMatch(/'weekly' \(from the lead-in\)/);
  });
});
