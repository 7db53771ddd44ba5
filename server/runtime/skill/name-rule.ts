// The naming rule for a string name, in one place: the validator reports it against the SKILL.md text, and the
// editor's Details form checks it as the author types (this file is pure, so the browser can import it).
import { FORMAT_LIMITS } from "../../domain/vocabulary";
import { codePointLength } from "./field-values";
import type { Severity } from "./types";

export interface NameProblem {
  severity: Severity;
  code: string;
  message: string;
}

const NAME_CHARS = /^[\p{L}\p{N}-]+$/u;
/** Lowercase ASCII words joined by single hyphens: what nearly every name is, and nothing below can object to. */
const PLAIN_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const ASCII = /^[\x00-\x7f]*$/;

/** NFKC, the form names are compared in; ASCII text is already in it (a listing of 10,000 names skips ICU). */
export const nfkc = (s: string): string => (ASCII.test(s) ? s : s.normalize("NFKC"));

/**
 * What is wrong with `v` as a skill name (empty when it is valid); the folder rule is the caller's. `ascii`: the
 * caller names folders in ASCII only (the console), so a suggestion must be ASCII too, or it would be refused next.
 */
export function nameProblems(v: string, opts: { ascii?: boolean } = {}): NameProblem[] {
  if (v.length <= FORMAT_LIMITS.nameChars && PLAIN_NAME.test(v)) return [];
  const out: NameProblem[] = [];
  const p = (severity: Severity, code: string, message: string) => out.push({ severity, code, message });
  if (v.trim() === "") {
    p("error", "name.empty", "name is empty: set it to the skill folder's name (lowercase letters, digits, hyphens).");
    return out;
  }
  // The spec allows only letters, digits and hyphens; skills-ref strips surrounding whitespace first, the spec
  // does not, so " pdf " (quoted, or a block scalar's trailing newline) is not a valid name.
  if (v !== v.trim()) {
    const what = /^\s/.test(v) && /\s$/.test(v) ? "before and after it" : /^\s/.test(v) ? "before it" : "after it";
    p("error", "name.whitespace", `name ${JSON.stringify(v)} has whitespace ${what}: write it as ${JSON.stringify(v.trim())}.`);
  }
  const name = nfkc(v.trim());
  const length = codePointLength(name);
  if (length > FORMAT_LIMITS.nameChars) p("error", "name.too-long", `name has ${length} characters; the limit is ${FORMAT_LIMITS.nameChars}.`);
  // A suggestion must itself be a valid name: lowercase, other characters to single hyphens, none at the edges.
  const valid = opts.ascii ? asciiNameFrom(name) : validNameFrom(name);
  if (name !== name.toLowerCase()) p("error", "name.case", `name "${name}" must be lowercase${valid ? `: use "${valid}"` : ""}.`);
  if (name.startsWith("-") || name.endsWith("-")) p("error", "name.hyphen-edge", `name "${name}" cannot start or end with a hyphen.`);
  if (name.includes("--")) p("error", "name.hyphen-consecutive", `name "${name}" cannot contain consecutive hyphens (--).`);
  if (!NAME_CHARS.test(name)) p("error", "name.pattern", `name "${name}" may only contain letters, digits and hyphens${valid ? `: try "${valid}"` : ""}.`);
  if (name !== v.trim()) p("info", "name.normalized", `name is compared in its NFKC-normalised form "${name}".`);
  return out;
}

/**
 * Words a name may not contain under the omniforge rules (seed 003): a skill must not pass for a vendor's own
 * (claude, anthropic, gemini, openai) or the host's (infer). The agentskills.io spec has no such rule.
 */
export const RESERVED_NAME_WORDS: readonly string[] = ["claude", "anthropic", "gemini", "openai", "infer"];

/** The first reserved word `name` contains (any case), or null. */
export function reservedWordIn(name: string): string | null {
  const lower = name.toLowerCase();
  return RESERVED_NAME_WORDS.find((w) => lower.includes(w)) ?? null;
}

const hyphenated = (s: string, other: RegExp) => s.replace(other, "-").replace(/^-+|-+$/g, "").slice(0, FORMAT_LIMITS.nameChars).replace(/-+$/, "");

/** The nearest valid name: lowercase, other characters to single hyphens, none at the edges ("" when none). */
export function validNameFrom(s: string): string {
  return hyphenated(s.trim().normalize("NFKC").toLowerCase(), /[^\p{L}\p{N}]+/gu);
}

/** The nearest valid ASCII name: accents dropped ("É" -> "e"), anything else not a-z or 0-9 to single hyphens. */
export function asciiNameFrom(s: string): string {
  return hyphenated(s.trim().normalize("NFKC").toLowerCase().normalize("NFKD").replace(/\p{M}/gu, ""), /[^a-z0-9]+/g);
}
