// The abstention fit's logistic regression (logistic.ts) on rows whose answer is known.
import { describe, expect, it } from "vitest";
import { logistic } from "./logistic";

/** Deterministic rows: y when 2·a + b + noise > 3, with c unrelated to y (a fixed pseudo-random sequence). */
function rows(n: number) {
  let seed = 7;
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const xs: number[][] = [];
  const y: boolean[] = [];
  for (let i = 0; i < n; i++) {
    const [a, b, c, noise] = [next() * 2, next() * 2, next() * 10, next() - 0.5];
    xs.push([a, b, c]);
    y.push(2 * a + b + noise > 3);
  }
  return { xs, y };
}

describe("logistic", () => {
  const { xs, y } = rows(600);
  const f = logistic(xs, y, { lambda: 1 });
  const p = (x: number[]) => 1 / (1 + Math.exp(-(f.bias + x.reduce((s, v, j) => s + (f.weights[j]! * (v - f.mean[j]!)) / f.scale[j]!, 0))));

  it("finds the direction that decides the answer, and no weight for a column unrelated to it", () => {
    // Per unit of input: a counts twice what b does; c nothing.
    const perUnit = f.weights.map((w, j) => w / f.scale[j]!);
    expect(perUnit[0]! / perUnit[1]!).toBeGreaterThan(1.6);
    expect(perUnit[0]! / perUnit[1]!).toBeLessThan(2.5);
    expect(Math.abs(f.weights[2]!)).toBeLessThan(0.1 * f.weights[0]!);
    const right = xs.filter((x, i) => p(x) >= 0.5 === y[i]).length;
    expect(right / xs.length).toBeGreaterThan(0.9);
  });

  it("gives the same constants on the same rows, and the rare class more weight when balanced", () => {
    expect(logistic(xs, y, { lambda: 1 })).toEqual(f);
    const few = xs.map((x, i) => ({ x, y: y[i]! })).filter((r, i) => r.y || i % 5 === 0);
    const plain = logistic(few.map((r) => r.x), few.map((r) => r.y), { lambda: 1 });
    const balanced = logistic(few.map((r) => r.x), few.map((r) => r.y), { lambda: 1, balanced: true });
    // Fewer negatives: balancing moves the bias toward them.
    expect(balanced.bias).toBeLessThan(plain.bias);
  });

  it("stays finite on rows of one class and on a constant column", () => {
    const g = logistic([[1, 5], [2, 5], [3, 5]], [true, true, true], { lambda: 1 });
    for (const v of [g.bias, ...g.weights]) expect(Number.isFinite(v)).toBe(true);
    expect(g.scale[1]).toBe(1);
  });
});
