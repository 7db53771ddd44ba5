// A small logistic regression for scripts/fit-abstention.ts: Newton's method with an L2 penalty on standardised
// inputs, a fixed number of steps, so a refit on the same rows gives the same constants. Tens of rows by a dozen
// columns; not for anything large.

export interface LogisticFit {
  /** Per column: the mean and standard deviation the inputs were standardised by. */
  mean: number[];
  scale: number[];
  /** Per column, on the standardised input. */
  weights: number[];
  bias: number;
}

/** Solves A x = b (A small and positive definite) by Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r]![n]!;
    for (let k = r + 1; k < n; k++) s -= m[r]![k]! * x[k]!;
    x[r] = s / m[r]![r]!;
  }
  return x;
}

/**
 * P(y = 1 | x) = σ(bias + Σ weight × (x − mean) / scale). `lambda` penalises the weights (not the bias); `balanced`
 * weighs each class as much in all, whatever their counts.
 */
export function logistic(xs: number[][], y: boolean[], opts: { lambda: number; balanced?: boolean; steps?: number }): LogisticFit {
  const cols = xs[0]?.length ?? 0;
  const mean = Array.from({ length: cols }, (_, j) => xs.reduce((a, x) => a + x[j]!, 0) / (xs.length || 1));
  const scale = Array.from({ length: cols }, (_, j) => Math.sqrt(xs.reduce((a, x) => a + (x[j]! - mean[j]!) ** 2, 0) / (xs.length || 1)) || 1);
  const z = xs.map((x) => [1, ...x.map((v, j) => (v - mean[j]!) / scale[j]!)]);
  const pos = y.filter(Boolean).length;
  const rowWeight = y.map((v) => (opts.balanced && pos && pos < y.length ? y.length / (2 * (v ? pos : y.length - pos)) : 1));
  const d = cols + 1;
  let w = new Array<number>(d).fill(0);
  for (let step = 0; step < (opts.steps ?? 30); step++) {
    const grad = new Array<number>(d).fill(0);
    const hess = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    z.forEach((x, i) => {
      const p = 1 / (1 + Math.exp(-x.reduce((a, v, j) => a + v * w[j]!, 0)));
      const c = rowWeight[i]!;
      const err = (y[i] ? 1 : 0) - p;
      for (let j = 0; j < d; j++) {
        grad[j]! += c * err * x[j]!;
        for (let k = 0; k < d; k++) hess[j]![k]! += c * p * (1 - p) * x[j]! * x[k]!;
      }
    });
    for (let j = 1; j < d; j++) {
      grad[j]! -= opts.lambda * w[j]!;
      hess[j]![j]! += opts.lambda;
    }
    // A tiny ridge on the bias too: all rows of one class would leave the Hessian singular.
    hess[0]![0]! += 1e-9;
    const delta = solve(hess, grad);
    w = w.map((v, j) => v + delta[j]!);
  }
  return { mean, scale, weights: w.slice(1), bias: w[0]! };
}
