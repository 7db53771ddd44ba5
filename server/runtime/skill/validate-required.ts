// The two required fields: name (characters, case, hyphens, length, its folder) and description.
import { diag } from "./diagnostics";
import { OPENING_RANGE } from "./parse";
import { FORMAT_LIMITS } from "../../domain/vocabulary";
import { codePointLength, typeName, type FieldsUnderCheck } from "./field-values";
import { nameProblems, nfkc, RESERVED_NAME_WORDS, reservedWordIn } from "./name-rule";

/** `outsideSpec`: the frontmatter's keys outside the spec's six, sorted (where a "Name" would be). */
export function checkName(f: FieldsUnderCheck, outsideSpec: string[]) {
  const { raw, has, ctx, out, valueRange } = f;
  if (!has("name")) {
    const lookalike = outsideSpec.find((k) => k.toLowerCase() === "name");
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
  for (const problem of nameProblems(v)) out.push(diag(problem.severity, problem.code, problem.message, valueRange("name")));
  if (v.trim() === "") return;
  const name = nfkc(v.trim());
  const reserved = ctx.rules === "omniforge" ? reservedWordIn(name) : null;
  if (reserved) {
    out.push(
      diag(
        "error",
        "name.reserved",
        `name "${name}" contains the reserved word "${reserved}": names must not contain ${RESERVED_NAME_WORDS.join(", ")} (seed 003), ` +
          `so a skill cannot pass for a vendor's own. Rename it; the skill still loads, and an administrator may allow such names (allowReservedNames) or block them (forbiddenNamePatterns).`,
        valueRange("name"),
      ),
    );
  }
  if (ctx.dirName) {
    const dir = nfkc(ctx.dirName);
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
    const length = v.length > FORMAT_LIMITS.descriptionChars ? codePointLength(v) : v.length; // code points <= UTF-16 units
    if (length > FORMAT_LIMITS.descriptionChars) {
      out.push(
        diag(
          rules === "spec" ? "error" : "warning",
          "description.too-long",
          `description has ${length} characters; the limit is ${FORMAT_LIMITS.descriptionChars}. Move detail into the body.` +
            (rules === "spec" ? "" : " It still loads, but listings may shorten it."),
          valueRange("description"),
        ),
      );
    }
  }
}
