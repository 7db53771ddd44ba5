import { describe, expect, it } from "vitest";
import { concatBytes } from "./bytes";

describe("concatBytes", () => {
  it("joins the chunks in order into one array of its own", () => {
    const backing = new Uint8Array([9, 1, 2, 3, 9]);
    const out = concatBytes([backing.subarray(1, 3), new Uint8Array([]), new Uint8Array([3, 4])]);
    expect([...out]).toEqual([1, 2, 3, 4]);
    expect(out.byteOffset).toBe(0);
    expect(out.buffer.byteLength).toBe(4);
  });
});
