// A definition's validity as the policy judges it, in one place: the validator reports every rule of its rule set,
// and a policy may allow what one of them forbids (allowReservedNames: seed 003's reserved words). The index keeps
// the validator's diagnostics as they are (it is shared by every policy and cached across listings), and every
// screen that shows diagnostics, a status or counts asks here, so the editor, the skill list, the layers and the
// CLI never disagree. Pure (no node: imports): the browser may import it.
import type { Diagnostic } from "../skill/types";
import type { RegistryPolicy, SkillEntry } from "./types";

/** ok, warnings, errors (loads, but breaks a rule) or invalid (does not load), from what the checks found. */
export function validityOf(loadable: boolean, diagnostics: readonly Diagnostic[]): SkillEntry["status"] {
  if (!loadable) return "invalid";
  if (diagnostics.some((d) => d.severity === "error")) return "errors";
  return diagnostics.length > 0 ? "warnings" : "ok";
}

/** The codes a policy setting allows: with the setting on, the rule is the administrator's choice, not a problem. */
function allowedCodes(policy: Pick<RegistryPolicy, "allowReservedNames"> | undefined): readonly string[] {
  return policy?.allowReservedNames ? ["name.reserved"] : [];
}

/** The diagnostics that still count under `policy`: the same array when it allows none of them. */
export function diagnosticsUnder<D extends Pick<Diagnostic, "code">>(diagnostics: D[], policy: Pick<RegistryPolicy, "allowReservedNames"> | undefined): D[] {
  const allowed = allowedCodes(policy);
  if (!allowed.length || !diagnostics.some((d) => allowed.includes(d.code))) return diagnostics;
  return diagnostics.filter((d) => !allowed.includes(d.code));
}

interface Validity {
  status: SkillEntry["status"];
  valid: boolean;
  diagnostics: Diagnostic[];
}

/** An index entry's status, validity and diagnostics under `policy` (the entry's own when the policy changes none). */
export function entryValidity(entry: SkillEntry, policy: Pick<RegistryPolicy, "allowReservedNames"> | undefined): Validity {
  const diagnostics = diagnosticsUnder(entry.diagnostics, policy);
  if (diagnostics === entry.diagnostics) return { status: entry.status, valid: entry.valid, diagnostics };
  const status = validityOf(entry.loadable, diagnostics);
  return { status, valid: status === "ok" || status === "warnings", diagnostics };
}
