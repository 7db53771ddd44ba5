// Near spellings: a typed word no skill has ("pyhton", "kubernets") is most likely one slip away from a word skills
// do have. One slip is one letter changed, added, dropped, or two neighbours swapped (optimal string alignment
// distance 1), for words of 5+ letters that keep their first letter (people rarely mistype it, and shorter words
// have too many neighbours to guess from).

/** True when `a` becomes `b` by one substitution, insertion, deletion or swap of adjacent letters. Linear. */
export function oneSlipApart(a: string, b: string): boolean {
  if (a === b) return false;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) {
    // Same length: one substitution (rest equal) or a swap of i and i+1 (rest equal).
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return i + 1 < la && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  // One letter more in the longer word at position i.
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** At most `max` words of `vocabulary` one slip from `word` (which must have 5+ letters), first letter kept. */
export function nearSpellings(word: string, vocabulary: Iterable<string>, max = 3): string[] {
  if (word.length < 5) return [];
  const out: string[] = [];
  for (const v of vocabulary) {
    if (v.length < 4 || v[0] !== word[0] || Math.abs(v.length - word.length) > 1) continue;
    if (oneSlipApart(word, v)) {
      out.push(v);
      if (out.length >= max) break;
    }
  }
  return out;
}
