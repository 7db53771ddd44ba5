// A refused input in one line a person can act on: each problem names its field in plain words ("Name: at most
// 120 characters."). zod's own texts ("Too big: expected string to have <=120 characters") name neither the field
// nor the fix, and reached the pages as they were. The tRPC middleware (trpc.ts) and the routes that parse their
// own query strings both use this, so every door says the same.
import type { z } from "zod";
import { count, plural } from "../domain/plural";

type Issue = z.core.$ZodIssue;

/** A schema's own message is a sentence that already says which field and what to do; zod's defaults start so. */
const ZOD_DEFAULT = /^(Too (big|small)|Invalid|Unrecognized key)/;
/** More problems than this are summed up: a form rarely has more fields, and the line stays one line. */
const MAX_SHOWN = 4;

/** "fileName" -> "File name"; a position in a list is counted from 1 ("Names, item 3"). */
export function fieldLabel(path: readonly PropertyKey[]): string {
  const words = (k: string) => k.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").toLowerCase();
  const parts: string[] = [];
  for (const k of path) parts.push(typeof k === "number" ? `item ${k + 1}` : words(String(k)));
  const text = parts.join(", ") || "input";
  return text[0]!.toUpperCase() + text.slice(1);
}

const KIND: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  array: "a list",
  object: "a set of fields",
  date: "a date",
};

const quoteAll = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(", ");

/** zod's default text of one problem, in words (without the field), or null when it has none to offer. */
function plain(issue: Issue): string | null {
  switch (issue.code) {
    case "too_big": {
      const n = Number(issue.maximum) - (issue.inclusive === false ? 1 : 0);
      if (issue.origin === "string") return `at most ${n} characters`;
      if (issue.origin === "array" || issue.origin === "set") return `at most ${count(n, "item")}`;
      return issue.inclusive === false ? `less than ${String(issue.maximum)}` : `at most ${String(issue.maximum)}`;
    }
    case "too_small": {
      const n = Number(issue.minimum) + (issue.inclusive === false ? 1 : 0);
      if (issue.origin === "string") return n <= 1 ? "cannot be empty" : `at least ${n} characters`;
      if (issue.origin === "array" || issue.origin === "set") return n <= 1 ? "needs at least one item" : `at least ${n} items`;
      return issue.inclusive === false ? `more than ${String(issue.minimum)}` : `at least ${String(issue.minimum)}`;
    }
    case "invalid_type":
      // A missing field says "received undefined"; the issue itself no longer carries the input.
      if (/received undefined$/.test(issue.message)) return "required";
      return `must be ${KIND[issue.expected] ?? issue.expected}`;
    case "invalid_format":
      if (issue.format === "email") return "not a valid email address";
      if (issue.format === "url") return "not a valid web address";
      if (issue.format === "regex") return "not in the expected form";
      return `not a valid ${issue.format}`;
    case "invalid_value":
      return issue.values.length === 1 ? `must be ${quoteAll(issue.values)}` : `must be one of ${quoteAll(issue.values)}`;
    case "invalid_union": {
      const options = (issue as { options?: unknown[] }).options;
      return options?.length ? `must be one of ${quoteAll(options)}` : "not valid";
    }
    case "unrecognized_keys":
      return `unknown ${plural(issue.keys.length, "field")} ${quoteAll(issue.keys)}`;
    default:
      return null;
  }
}

const sentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

/**
 * One problem: a schema's own sentence as it is (it starts with a capital and names its field), a schema's own
 * phrase ("not a date: abc", lower case, for a rule several fields share) after the field's label, else zod's
 * default said plainly after the label.
 */
export function issueText(issue: Issue): string {
  const own = issue.message.trim();
  const label = fieldLabel(issue.path);
  if (own && !ZOD_DEFAULT.test(own)) return sentence(/^[a-z]/.test(own) ? `${label}: ${own}` : own);
  return `${label}: ${plain(issue) ?? "not valid"}.`;
}

/** The whole refusal in one line: every problem once, the first few in full. */
export function inputErrorMessage(error: z.ZodError): string {
  const texts = [...new Set(error.issues.map(issueText))];
  if (texts.length <= MAX_SHOWN) return texts.join(" ");
  return `${texts.slice(0, MAX_SHOWN).join(" ")} (and ${texts.length - MAX_SHOWN} more problems)`;
}
