// Counts in words, with the language's plural rules ("1 error", "2 errors", "0 errors"), one helper for every page and the CLI.
const rules = new Intl.PluralRules("en-US");

/** "3 errors": `n` and the noun in the form its number takes. `many` defaults to `one` + "s". */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${rules.select(n) === "one" ? one : many}`;
}
