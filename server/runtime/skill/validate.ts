// Frontmatter rules for both rule sets, and the lenient extraction of properties an agent can load.
// Check order follows the reference validator (unknown fields, name, description, compatibility, allowed-tools),
// then the remaining fields in file order.
import type { Diagnostic, RuleSet, SkillProperties, SkillScope } from "./types";
import { diag, type Range } from "./diagnostics";
import { OPENING_RANGE, type ParsedSkill } from "./parse";
import type { FieldPos } from "./fast-yaml";
import { EXTENSION_FIELDS, SPEC_FIELDS, VENDOR_FIELDS, suggestField } from "./fields";
import { parseAllowedTools, splitPatterns } from "./allowed-tools";
import { resolveInsideSkill } from "./paths";

export const MAX_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;
export const MAX_COMPATIBILITY_LENGTH = 500;

const NAME_CHARS = /^[\p{L}\p{N}-]+$/u;
const NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?$/i;
const SCOPE_KEYS = ["agents", "tenants", "environments"] as const;
const SPEC_LIST = "name, description, license, compatibility, metadata, allowed-tools";

export interface FrontmatterContext {
  rules: RuleSet;
  /** Basename of the skill folder, for the name rule; null skips that rule. */
  dirName: string | null;
  fileExists?: (relPath: string) => boolean;
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

const typeName = (v: unknown) => (Array.isArray(v) ? "a list" : v === null ? "empty" : typeof v === "object" ? "a mapping" : `a ${typeof v}`);

export function validateFrontmatter(parsed: ParsedSkill, ctx: FrontmatterContext): void {
  const raw = parsed.raw;
  if (!raw) return;
  const out = parsed.diagnostics;
  const { rules } = ctx;
  const spec = rules === "spec";
  const fields = parsed.fields;
  const keyRange = (key: string): Range => parsed.rangeOf(fields.get(key)?.key);
  const valueRange = (key: string): Range => {
    const pos = fields.get(key);
    return parsed.rangeOf(pos?.value ?? pos?.key);
  };
  // An optional field written with an empty value (`license:` or `compatibility: ""`) counts as absent, as in
  // skills-ref; the required name and description are never optional, and an unknown key stays unknown.
  const has = (key: string) => Object.prototype.hasOwnProperty.call(raw, key) && !isEmptyOptional(key, raw[key]);

  // Unknown fields first, sorted, one diagnostic each so the editor can underline each key.
  const keys = Object.keys(raw).sort();
  for (const key of keys) {
    if (SPEC_FIELDS.has(key)) continue;
    const vendor = VENDOR_FIELDS.get(key);
    const extension = EXTENSION_FIELDS.has(key);
    const suggestion = vendor || extension ? null : suggestField(key);
    const hint = suggestion ? ` Did you mean "${suggestion}"?` : "";
    if (spec) {
      let why = "";
      if (extension) why = " It is an OmniForge extension field: accepted with --rules omniforge.";
      else if (vendor)
        why =
          vendor.origin === "various"
            ? " Several tools write this field: move it under metadata to stay portable."
            : ` It is a ${vendor.origin} field: move it under metadata to stay portable.`;
      out.push(diag("error", "field.unknown", `Unknown field "${key}": the spec allows only ${SPEC_LIST}.${why}${hint}`, keyRange(key)));
    } else if (vendor) {
      out.push(
        diag("warning", "field.vendor", `"${key}" is a ${vendor.origin} field that OmniForge keeps but does not use; other spec tools reject it.`, keyRange(key)),
      );
    } else if (!extension) {
      out.push(diag("warning", "field.unknown", `Unknown field "${key}" is ignored.${hint || ` Known fields: ${SPEC_LIST}, and the OmniForge extensions.`}`, keyRange(key)));
    }
  }

  checkName(raw, has, ctx, out, valueRange, keys);
  checkDescription(raw, has, rules, out, valueRange);

  if (has("compatibility")) {
    const v = raw.compatibility;
    if (typeof v !== "string") out.push(diag("error", "compatibility.type", `compatibility must be a string, not ${typeName(v)}.`, valueRange("compatibility")));
    else if (codePointLength(v) > MAX_COMPATIBILITY_LENGTH) {
      out.push(
        diag("error", "compatibility.too-long", `compatibility has ${codePointLength(v)} characters; the limit is ${MAX_COMPATIBILITY_LENGTH}. Shorten it.`, valueRange("compatibility")),
      );
    }
  }

  if (has("allowed-tools")) {
    const v = raw["allowed-tools"];
    if (typeof v === "string") {
      if (!splitPatterns(v).balanced) {
        out.push(diag("warning", "allowed-tools.syntax", "allowed-tools has unbalanced parentheses; each pattern looks like Tool or Tool(argument-pattern).", valueRange("allowed-tools")));
      }
    } else if (Array.isArray(v) && !spec) {
      if (!v.every((item) => typeof item === "string")) {
        out.push(diag("error", "allowed-tools.type", "Every allowed-tools list item must be a string such as Read or Bash(git:*).", valueRange("allowed-tools")));
      }
    } else {
      out.push(
        diag(
          "error",
          "allowed-tools.type",
          spec && Array.isArray(v)
            ? 'The spec defines allowed-tools as one space-separated string, e.g. allowed-tools: "Read Bash(git:*)" (a YAML list is accepted with --rules omniforge).'
            : `allowed-tools must be a string of tool patterns, not ${typeName(v)}.`,
          valueRange("allowed-tools"),
        ),
      );
    }
  }

  if (has("license") && typeof raw.license !== "string") {
    out.push(diag("error", "license.type", `license must be a string (a license name or a file reference), not ${typeName(raw.license)}.`, valueRange("license")));
  }

  if (has("metadata")) checkMetadata(raw.metadata, fields.get("metadata"), parsed, out, rules);

  if (!spec) checkExtensions(raw, has, ctx, out, valueRange, fields, parsed);
}

function checkName(
  raw: Record<string, unknown>,
  has: (k: string) => boolean,
  ctx: FrontmatterContext,
  out: Diagnostic[],
  valueRange: (k: string) => Range,
  keys: string[],
) {
  if (!has("name")) {
    const lookalike = keys.find((k) => k.toLowerCase() === "name");
    out.push(
      diag(
        "error",
        "name.missing",
        `Missing required field "name".${lookalike ? ` Found "${lookalike}": field names are lowercase.` : " Add name: followed by the skill folder's name."}`,
        OPENING_RANGE,
      ),
    );
    return;
  }
  const v = raw.name;
  if (typeof v !== "string") {
    out.push(diag("error", "name.type", `name must be a string, not ${typeName(v)}.`, valueRange("name")));
    return;
  }
  if (v.trim() === "") {
    out.push(diag("error", "name.empty", "name is empty: set it to the skill folder's name (lowercase letters, digits, hyphens).", valueRange("name")));
    return;
  }
  // The spec allows only letters, digits and hyphens; skills-ref strips surrounding whitespace first, the spec
  // does not, so " pdf " (quoted, or a block scalar's trailing newline) is not a valid name.
  if (v !== v.trim()) {
    const what = /^\s/.test(v) && /\s$/.test(v) ? "before and after it" : /^\s/.test(v) ? "before it" : "after it";
    out.push(
      diag("error", "name.whitespace", `name ${JSON.stringify(v)} has whitespace ${what}: write it as ${JSON.stringify(v.trim())}.`, valueRange("name")),
    );
  }
  const name = v.trim().normalize("NFKC");
  const length = codePointLength(name);
  if (length > MAX_NAME_LENGTH) {
    out.push(diag("error", "name.too-long", `name has ${length} characters; the limit is ${MAX_NAME_LENGTH}.`, valueRange("name")));
  }
  if (name !== name.toLowerCase()) {
    out.push(diag("error", "name.case", `name "${name}" must be lowercase: use "${name.toLowerCase()}".`, valueRange("name")));
  }
  if (name.startsWith("-") || name.endsWith("-")) {
    out.push(diag("error", "name.hyphen-edge", `name "${name}" cannot start or end with a hyphen.`, valueRange("name")));
  }
  if (name.includes("--")) {
    out.push(diag("error", "name.hyphen-consecutive", `name "${name}" cannot contain consecutive hyphens (--).`, valueRange("name")));
  }
  if (!NAME_CHARS.test(name)) {
    const fixed = name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "");
    out.push(
      diag(
        "error",
        "name.pattern",
        `name "${name}" may only contain letters, digits and hyphens${fixed ? `: try "${fixed}"` : ""}.`,
        valueRange("name"),
      ),
    );
  }
  if (name !== v.trim()) {
    out.push(diag("info", "name.normalized", `name is compared in its NFKC-normalised form "${name}".`, valueRange("name")));
  }
  if (ctx.dirName) {
    const dir = ctx.dirName.normalize("NFKC");
    if (dir !== name) {
      out.push(
        diag(
          ctx.rules === "spec" ? "error" : "warning",
          "name.directory-mismatch",
          `name "${name}" does not match its folder "${ctx.dirName}": rename the folder or set name: ${dir}.` +
            (ctx.rules === "spec" ? "" : " The skill still loads under its name."),
          valueRange("name"),
        ),
      );
    }
  }
}

function checkDescription(
  raw: Record<string, unknown>,
  has: (k: string) => boolean,
  rules: RuleSet,
  out: Diagnostic[],
  valueRange: (k: string) => Range,
) {
  if (!has("description")) {
    out.push(diag("error", "description.missing", 'Missing required field "description": say what the skill does and when to use it.', OPENING_RANGE));
    return;
  }
  const v = raw.description;
  if (typeof v !== "string") out.push(diag("error", "description.type", `description must be a string, not ${typeName(v)}.`, valueRange("description")));
  else if (v.trim() === "") out.push(diag("error", "description.empty", "description is empty: say what the skill does and when to use it.", valueRange("description")));
  else {
    const length = v.length > MAX_DESCRIPTION_LENGTH ? codePointLength(v) : v.length; // code points <= UTF-16 units
    if (length > MAX_DESCRIPTION_LENGTH) {
      out.push(
        diag(
          rules === "spec" ? "error" : "warning",
          "description.too-long",
          `description has ${length} characters; the limit is ${MAX_DESCRIPTION_LENGTH}. Move detail into the body.` +
            (rules === "spec" ? "" : " It still loads, but listings may shorten it."),
          valueRange("description"),
        ),
      );
    }
  }
}

function checkMetadata(value: unknown, pos: FieldPos | undefined, parsed: ParsedSkill, out: Diagnostic[], rules: RuleSet) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    out.push(diag("error", "metadata.type", `metadata must be a mapping of key: value strings, not ${typeName(value)}.`, parsed.rangeOf(pos?.value ?? pos?.key)));
    return;
  }
  const itemRange = (key: string) => {
    const child = pos?.children?.get(key);
    return parsed.rangeOf(child?.value ?? child?.key ?? pos?.value);
  };
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v !== "string") {
      // Real collections (openclaw "requires", contributor lists) nest values here; omniforge keeps the skill
      // valid and simply leaves such keys out of properties.metadata.
      out.push(
        diag(
          rules === "spec" ? "error" : "warning",
          "metadata.value-type",
          `metadata.${key} must be a plain string, not ${typeName(v)}: flatten it (e.g. ${key}-name: ...) or quote it.` +
            (rules === "spec" ? "" : " It is left out of the loaded metadata."),
          itemRange(key),
        ),
      );
    }
  }
}

function checkExtensions(
  raw: Record<string, unknown>,
  has: (k: string) => boolean,
  ctx: FrontmatterContext,
  out: Diagnostic[],
  valueRange: (k: string) => Range,
  fields: Map<string, FieldPos>,
  parsed: ParsedSkill,
) {
  for (const key of ["model", "agent"] as const) {
    if (has(key) && (typeof raw[key] !== "string" || (raw[key] as string).trim() === "")) {
      out.push(diag("error", `${key}.type`, `${key} must be a non-empty string.`, valueRange(key)));
    }
  }
  if (has("context") && raw.context !== "inherit" && raw.context !== "fork") {
    out.push(diag("error", "context.value", `context must be "inherit" or "fork", not ${JSON.stringify(raw.context)}.`, valueRange("context")));
  }
  if (has("priority") && !(typeof raw.priority === "string" && NUMBER.test(raw.priority.trim()))) {
    out.push(diag("error", "priority.type", `priority must be a number (e.g. priority: 10), not ${JSON.stringify(raw.priority)}.`, valueRange("priority")));
  }
  if (has("tags")) {
    const v = raw.tags;
    if (typeof v === "string") out.push(diag("warning", "tags.type", "tags should be a YAML list (tags: [a, b]); this string is split on commas and spaces.", valueRange("tags")));
    else if (!Array.isArray(v) || !v.every((t) => typeof t === "string")) {
      out.push(diag("error", "tags.type", "tags must be a list of strings.", valueRange("tags")));
    }
  }
  if (has("hooks")) checkHooks(raw.hooks, ctx, out, valueRange("hooks"), fields.get("hooks"), parsed);
  if (has("scope")) {
    const v = raw.scope;
    if (v === null || typeof v !== "object" || Array.isArray(v)) {
      out.push(diag("error", "scope.type", "scope must be a mapping with agents, tenants and/or environments lists.", valueRange("scope")));
    } else {
      for (const [key, list] of Object.entries(v as Record<string, unknown>)) {
        if (!(SCOPE_KEYS as readonly string[]).includes(key)) {
          const suggestion = suggestField(key, SCOPE_KEYS);
          out.push(diag("warning", "scope.unknown-key", `scope.${key} is not used (known: ${SCOPE_KEYS.join(", ")}).${suggestion ? ` Did you mean "${suggestion}"?` : ""}`, valueRange("scope")));
        } else if (typeof list !== "string" && !(Array.isArray(list) && list.every((x) => typeof x === "string"))) {
          out.push(diag("error", "scope.type", `scope.${key} must be a list of strings.`, valueRange("scope")));
        }
      }
    }
  }
}

function checkHooks(value: unknown, ctx: FrontmatterContext, out: Diagnostic[], range: Range, pos: FieldPos | undefined, parsed: ParsedSkill) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    out.push(diag("error", "hooks.type", "hooks must be a mapping with pre: and/or post: script paths.", range));
    return;
  }
  const nodeOf = (key: string): Range => {
    const child = pos?.children?.get(key);
    return child ? parsed.rangeOf(child.value ?? child.key) : range;
  };
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (key !== "pre" && key !== "post") {
      out.push(diag("warning", "hooks.unknown-key", `hooks.${key} is not run by OmniForge (only hooks.pre and hooks.post).`, nodeOf(key)));
      continue;
    }
    if (typeof v !== "string" || v.trim() === "") {
      out.push(diag("error", "hooks.type", `hooks.${key} must be a script path inside the skill, e.g. scripts/setup.sh.`, nodeOf(key)));
      continue;
    }
    const resolved = resolveInsideSkill(v);
    if (!resolved.ok) {
      out.push(diag("error", "hooks.path", `hooks.${key} "${v}" must be a relative path inside the skill folder (no absolute path, URL or ..).`, nodeOf(key)));
    } else if (ctx.fileExists && !ctx.fileExists(resolved.path)) {
      out.push(diag("warning", "hooks.missing-script", `hooks.${key} script "${resolved.path}" does not exist in the skill folder.`, nodeOf(key)));
    }
  }
}

const splitList = (s: string) => s.split(/[\s,]+/).filter(Boolean);
const stringList = (v: unknown): string[] | undefined =>
  typeof v === "string" ? splitList(v) : Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : undefined;

/**
 * The lenient view an agent loads: set whenever the frontmatter is a mapping with a non-empty string name and
 * description, whatever the rule set says about the rest. Ill-typed optional fields are left out, except
 * allowed-tools: present but unreadable means no tool is pre-approved (fail closed), never "all tools".
 */
export function extractProperties(raw: Record<string, unknown> | null): SkillProperties | null {
  if (!raw) return null;
  const { name, description } = raw;
  if (typeof name !== "string" || !name.trim() || typeof description !== "string" || !description.trim()) return null;
  const p: SkillProperties = { name: name.trim().normalize("NFKC"), description: description.trim() };
  if (Object.values(raw).includes("")) raw = Object.fromEntries(Object.entries(raw).filter(([k, v]) => !isEmptyOptional(k, v)));
  if (typeof raw.license === "string") p.license = raw.license;
  if (typeof raw.compatibility === "string") p.compatibility = raw.compatibility;
  const meta = raw.metadata;
  if (meta && typeof meta === "object" && !Array.isArray(meta)) {
    const strings: Record<string, string> = {};
    for (const [k, v] of Object.entries(meta)) if (typeof v === "string") strings[k] = v;
    p.metadata = strings;
  }
  if (Object.prototype.hasOwnProperty.call(raw, "allowed-tools")) p.allowedTools = parseAllowedTools(raw["allowed-tools"]);
  if (typeof raw.model === "string" && raw.model.trim()) p.model = raw.model.trim();
  if (raw.context === "inherit" || raw.context === "fork") p.context = raw.context;
  if (typeof raw.agent === "string" && raw.agent.trim()) p.agent = raw.agent.trim();
  const hooks = raw.hooks;
  if (hooks && typeof hooks === "object" && !Array.isArray(hooks)) {
    const h: { pre?: string; post?: string } = {};
    for (const key of ["pre", "post"] as const) {
      const v = (hooks as Record<string, unknown>)[key];
      const resolved = typeof v === "string" ? resolveInsideSkill(v) : null;
      if (resolved?.ok) h[key] = resolved.path; // only confined paths ever reach the runtime
    }
    if (h.pre || h.post) p.hooks = h;
  }
  if (typeof raw.priority === "string" && NUMBER.test(raw.priority.trim())) p.priority = Number(raw.priority);
  const tags = stringList(raw.tags);
  if (tags) p.tags = tags;
  const scope = raw.scope;
  if (scope && typeof scope === "object" && !Array.isArray(scope)) {
    const s: SkillScope = {};
    for (const key of SCOPE_KEYS) {
      const list = stringList((scope as Record<string, unknown>)[key]);
      if (list) s[key] = list;
    }
    p.scope = s;
  }
  return p;
}
