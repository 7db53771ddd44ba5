// "Did you mean": the nearest known word to a mistyped one, as git and npm offer: a command or flag of the CLI, a
// skill name in a policy rule (issue 41 item 7). Only computed when something is not found,
// so it costs a successful command nothing.

/** Edits (insert, delete, replace, swap two neighbours) between a and b; stops counting past `limit`. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
    }
    [prev2, prev] = [prev, row];
  }
  return prev[b.length]!;
}

/**
 * The candidate nearest to `word`, when it is near enough to be what was meant (a third of its length in edits,
 * at least one, at most three), and unambiguous: two equally near candidates suggest neither.
 */
export function nearest(word: string, candidates: Iterable<string>): string | null {
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | null = null;
  let bestD = limit + 1;
  let tie = false;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase(), limit);
    if (d < bestD) [best, bestD, tie] = [c, d, false];
    else if (d === bestD && c !== best) tie = true;
  }
  return best !== null && !tie ? best : null;
}
