// Frontmatter rules for both rule sets, and the lenient extraction of properties an agent can load.
// Check order follows the reference validator (unknown fields, name, description, compatibility, allowed-tools),
// then the remaining fields in file order. The required fields are checked in validate-required.ts, the
// structured optional ones in validate-optional.ts, the properties are read in properties.ts.
import { diag, type Range } from "./diagnostics";
import type { ParsedSkill } from "./parse";
import { EXTENSION_FIELDS, SPEC_FIELDS, VENDOR_FIELDS, suggestField } from "./fields";
import { splitPatterns } from "./allowed-tools";
import { FORMAT_LIMITS } from "../../domain/vocabulary";
import { codePointLength, isEmptyOptional, typeName, type FieldsUnderCheck, type FrontmatterContext } from "./field-values";
import { checkDescription, checkName } from "./validate-required";
import { checkExtensions, checkMetadata } from "./validate-optional";

export { extractProperties } from "./properties";

const SPEC_LIST = "name, description, license, compatibility, metadata, allowed-tools";

/**
 * The keys outside the spec's six, sorted as Array.prototype.sort sorts strings. An insertion sort: a frontmatter
 * has a handful of them, and the builtin sort allocates a work array per call, thousands of times in a listing.
 */
function sortedOutsideSpec(raw: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const key of Object.keys(raw)) {
    if (SPEC_FIELDS.has(key)) continue;
    let i = out.length;
    out.push(key);
    for (; i > 0 && out[i - 1]! > key; i--) out[i] = out[i - 1]!;
    out[i] = key;
  }
  return out;
}

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
  const keys = sortedOutsideSpec(raw);
  for (const key of keys) {
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
      const whose = vendor.origin === "various" ? "a field several tools write" : `a ${vendor.origin} field`;
      out.push(diag("warning", "field.vendor", `"${key}" is ${whose}; OmniForge keeps it but does not use it, and other spec tools reject it.`, keyRange(key)));
    } else if (!extension) {
      out.push(diag("warning", "field.unknown", `Unknown field "${key}" is ignored.${hint || ` Known fields: ${SPEC_LIST}, and the OmniForge extensions.`}`, keyRange(key)));
    }
  }

  const f: FieldsUnderCheck = { raw, has, ctx, out, valueRange };
  checkName(f, keys);
  checkDescription(f);

  if (has("compatibility")) {
    const v = raw.compatibility;
    if (typeof v !== "string") out.push(diag("error", "compatibility.type", `compatibility must be a string, not ${typeName(v)}.`, valueRange("compatibility")));
    else if (codePointLength(v) > FORMAT_LIMITS.compatibilityChars) {
      out.push(
        diag("error", "compatibility.too-long", `compatibility has ${codePointLength(v)} characters; the limit is ${FORMAT_LIMITS.compatibilityChars}. Shorten it.`, valueRange("compatibility")),
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

  if (!spec) checkExtensions(f, fields, parsed);
}
