// What every frontmatter rule shares: the format's limits, how a value is measured (code points) and named
// in a message, and when an optional field counts as absent.
import type { Range } from "./diagnostics";
import type { Diagnostic, FileLookup, RuleSet } from "./types";

/** The frontmatter under check, as each field's rule reads it and reports on it. */
export interface FieldsUnderCheck {
  raw: Record<string, unknown>;
  /** The field is present (an empty optional field counts as absent). */
  has: (k: string) => boolean;
  ctx: FrontmatterContext;
  out: Diagnostic[];
  valueRange: (k: string) => Range;
}


/** A priority value, as YAML writes a number. */
export const NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?$/i;
export const SCOPE_KEYS = ["agents", "tenants", "environments"] as const;

export interface FrontmatterContext {
  rules: RuleSet;
  /** Basename of the skill folder, for the name rule; null skips that rule. */
  dirName: string | null;
  fileExists?: FileLookup;
}

/** Code points, as the spec (and Python's len) counts them. */
const SURROGATE = /[\ud800-\udfff]/;

export function codePointLength(s: string): number {
  if (!SURROGATE.test(s)) return s.length; // the common case, without a loop over every character
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** An optional field given as the empty string: treated as not given at all (the reference's reading). */
export function isEmptyOptional(key: string, value: unknown): boolean {
  return value === "" && key !== "name" && key !== "description";
}

export const typeName = (v: unknown) => (Array.isArray(v) ? "a list" : v === null ? "empty" : typeof v === "object" ? "a mapping" : `a ${typeof v}`);
