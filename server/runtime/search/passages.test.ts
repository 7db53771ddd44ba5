import { describe, expect, it } from "vitest";
import { bestPassage, passagesOf, rerankByPassages, WINDOW } from "./passages";
import { terms } from "./text";

const q = (text: string) => [...new Set(terms(text))].map((term) => ({ term, weight: 1 }));

describe("passages", () => {
  it("splits a body at its headings, heads each section with its chain of headings and leaves code out", () => {
    const body = ["Intro line about invoices.", "# Setup", "Install the tool.", "## Proxy", "Behind a corporate proxy set the variable.", "```bash", "# not a heading", "export SECRET_WORD=1", "```", "# Usage", "Run it."].join("\n");
    const ps = passagesOf(body);
    expect(ps).toHaveLength(4);
    const proxy = ps[2]!;
    // The chain: "Setup / Proxy" heads the proxy section.
    for (const t of terms("setup proxy corporate")) expect(proxy.tf.has(t), t).toBe(true);
    expect(ps.some((p) => p.tf.has(terms("secret")[0]!))).toBe(false);
  });

  it("cuts a long section into overlapping windows", () => {
    const words = Array.from({ length: 400 }, (_, i) => `w${i}`).join(" ");
    const ps = passagesOf(`# Long\n${words}`);
    expect(ps.length).toBeGreaterThanOrEqual(400 / WINDOW + 1);
    // Half overlap: a word near a window's end is in the next window too.
    expect(ps.filter((p) => p.tf.has("w90")).length).toBe(2);
  });

  it("scores a skill by its best passage, not by its words scattered over the body", () => {
    const together = passagesOf("# Refunds\nReply to a customer who asks for a refund, polite but firm.\n# Other\nNothing here.");
    const scattered = passagesOf("# A\nA customer section.\n# B\nA refund section.\n# C\nA polite section.\n# D\nA firm section.");
    const query = q("polite but firm refund reply to a customer");
    expect(bestPassage(together, query)).toBeGreaterThan(bestPassage(scattered, query));
  });

  it("reads a body 100 times the usual size up to its cap", () => {
    const section = "## Part\nSome prose about deploying and rolling back a release safely.\n";
    const huge = section.repeat(100 * 40);
    const ps = passagesOf(huge);
    expect(ps.length).toBeGreaterThan(0);
    expect(ps.length).toBeLessThan(huge.length / section.length);
  });

  it("reorders the first hits by their best passage and leaves the rest below", () => {
    const doc = (source: string) => ({ source });
    const ranked = [
      { doc: doc("# Topic\nUnrelated words only."), score: 10 },
      { doc: doc("# Rollback\nRoll back a failed deploy of the database version."), score: 9.5 },
      { doc: doc("# Else\nNothing."), score: 9 },
    ];
    const second = ranked[1];
    rerankByPassages(ranked, q("roll back a failed database deploy"), { weight: 0.4, depth: 2, second: 0 });
    expect(ranked[0]).toBe(second);
    expect(ranked[0]!.score).toBeGreaterThan(ranked[1]!.score);
    expect(ranked[2]!.score).toBe(9);
    rerankByPassages(ranked, q("roll back a failed database deploy"), { weight: 0, depth: 2, second: 0 });
    expect(ranked[0]).toBe(second);
  });
});
