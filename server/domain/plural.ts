// Counts in words, with the language's plural rules ("1 error", "2 errors", "0 errors"), one helper for every page and the CLI.
const rules = new Intl.PluralRules("en-US");

/** The word alone in the form `n` takes, for the words around a count: "is"/"are", "was"/"were", "it"/"them". */
export function plural(n: number, one: string, many = `${one}s`): string {
  // Whole numbers, nearly every count: English's rule picks "one" for 1 and -1 only (asked of the rules, this was
  // 5 ms of a 10,000-skill listing). Fractions go to the rules.
  if (Number.isInteger(n)) return n === 1 || n === -1 ? one : many;
  return rules.select(n) === "one" ? one : many;
}

/**
 * "3 errors": `n` and the noun in the form its number takes. `many` defaults to `one` + "s". Counts are grouped
 * ("1,200 events"); `group: false` prints the number as a person typed it, for a setting's value ("3650 days"
 * read back from OMNIFORGE_AUDIT_RETENTION_DAYS=3650), so the page says what the setting says.
 */
export function count(n: number, one: string, many = `${one}s`, opts: { group?: boolean } = {}): string {
  return `${opts.group === false || (Number.isInteger(n) && n > -1000 && n < 1000) ? String(n) : grouped().format(n)} ${plural(n, one, many)}`;
}

// One formatter for every count, made on first need: toLocaleString builds one per call, and the first one loads
// ICU's number data (15 ms, a twentieth of `omniforge skill validate`). Below a thousand there is nothing to group.
let formatter: Intl.NumberFormat | null = null;
const grouped = () => (formatter ??= new Intl.NumberFormat("en-US"));
