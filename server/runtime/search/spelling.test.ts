import { describe, expect, it } from "vitest";
import { nearSpellings, oneSlipApart } from "./spelling";

describe("near spellings", () => {
  it("one slip: a letter changed, added, dropped, or two neighbours swapped; not two slips, not the word itself", () => {
    expect(oneSlipApart("pyhton", "python")).toBe(true); // swapped
    expect(oneSlipApart("kubernets", "kubernetes")).toBe(true); // dropped
    expect(oneSlipApart("dockerr", "docker")).toBe(true); // added
    expect(oneSlipApart("grafama", "grafana")).toBe(true); // changed
    expect(oneSlipApart("pyhtno", "python")).toBe(false);
    expect(oneSlipApart("python", "python")).toBe(false);
    expect(oneSlipApart("pdf", "pdfs2x")).toBe(false);
  });

  it("keeps the first letter, needs 5+ letters, and stops at three", () => {
    const vocab = ["python", "jython", "pythom", "pythons", "pithon", "pyton", "pytho"];
    expect(nearSpellings("pyhton", vocab)).toEqual(["python", "pyton"]);
    expect(nearSpellings("python2", ["python", "pythons"])).toEqual(["python", "pythons"]);
    expect(nearSpellings("bython", ["python"])).toEqual([]); // the first letter differs
    expect(nearSpellings("pyth", vocab)).toEqual([]);
    expect(nearSpellings("pytho", vocab)).toEqual(["python", "pythom"]);
    expect(nearSpellings("abcde", ["abcdf", "abcdg", "abcdh", "abcdi"])).toEqual(["abcdf", "abcdg", "abcdh"]);
  });
});
