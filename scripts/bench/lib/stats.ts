// The benches' one median: the lower middle of an even count (a bench reports a measured value, never a mean of
// two), NaN for no values.
export function median(xs: number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}
