import superjson from "superjson";
import { describe, expect, it } from "vitest";
import { isPlainJson, transformer } from "./transformer";

const plain = { rows: [{ name: "pdf", tags: ["a"], lastChange: { at: 1795637906451, by: null, source: "disk" }, ok: true, n: -1.5 }], total: 1, nested: { deep: [[1, 2], []] } };

describe("the tRPC answer format", () => {
  it("sends what JSON carries as superjson would, without its walk", () => {
    expect(isPlainJson(plain)).toBe(true);
    expect(transformer.serialize(plain)).toEqual(superjson.serialize(plain));
    expect(transformer.serialize(plain)).toEqual({ json: plain });
    expect(superjson.deserialize(transformer.serialize(plain) as never)).toEqual(plain);
  });

  it("leaves everything JSON would change to superjson, anywhere in the value", () => {
    const cases: unknown[] = [
      { at: new Date(5) },
      { a: [1, undefined] },
      { a: { b: undefined } },
      { m: new Map([["k", 1]]) },
      { s: new Set([1]) },
      { n: NaN },
      { n: Infinity },
      { big: 10n },
      { re: /x/ },
      undefined,
    ];
    for (const v of cases) {
      expect(isPlainJson(v)).toBe(false);
      const wire = transformer.serialize(v);
      expect(wire).toEqual(superjson.serialize(v));
      // What the client rebuilds is what the procedure returned.
      expect(superjson.deserialize(JSON.parse(JSON.stringify(wire)) as never)).toEqual(v);
    }
    // Instances superjson cannot rebuild either are still its business, sent as it sends them.
    for (const v of [{ e: new Error("boom") }, { c: new (class Thing {})() }]) {
      expect(isPlainJson(v)).toBe(false);
      expect(transformer.serialize(v)).toEqual(superjson.serialize(v));
    }
  });

  it("reads what the client sends with superjson", () => {
    const input = { when: new Date(7), q: "x" };
    expect(transformer.deserialize(superjson.serialize(input))).toEqual(input);
  });
});
