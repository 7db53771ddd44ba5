// The two required fields: name (characters, case, hyphens, length, its folder) and description.
import { diag } from "./diagnostics";
import { OPENING_RANGE } from "./parse";
import { codePointLength, MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, typeName, type FieldsUnderCheck } from "./field-values";

const NAME_CHARS = /^[\p{L}\p{N}-]+$/u;

export function checkName(f: FieldsUnderCheck, keys: string[]) {
  const { raw, has, ctx, out, valueRange } = f;
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
  // A suggestion must itself be a valid name: lowercase, other characters to single hyphens, none at the edges.
  const valid = name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "").slice(0, MAX_NAME_LENGTH).replace(/-+$/, "");
  if (name !== name.toLowerCase()) {
    out.push(diag("error", "name.case", `name "${name}" must be lowercase${valid ? `: use "${valid}"` : ""}.`, valueRange("name")));
  }
  if (name.startsWith("-") || name.endsWith("-")) {
    out.push(diag("error", "name.hyphen-edge", `name "${name}" cannot start or end with a hyphen.`, valueRange("name")));
  }
  if (name.includes("--")) {
    out.push(diag("error", "name.hyphen-consecutive", `name "${name}" cannot contain consecutive hyphens (--).`, valueRange("name")));
  }
  if (!NAME_CHARS.test(name)) {
    const fixed = valid;
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

export function checkDescription(f: FieldsUnderCheck) {
  const { raw, has, out, valueRange } = f;
  const rules = f.ctx.rules;
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
