// What a policy change would change, said before it is applied (issue 41 item 2): the resolution the Layers page
// shows (resolutionFor + the cached resolveAll, the same what-if inputs) computed twice, with the stored policy and
// with the policy after the change, and compared name by name. Nothing is written; the change itself still goes
// through changePolicy (stored and audited there).
import type { Db } from "../../../db/client";
import type { DataHome } from "../../config";
import type { LayerName, Resolution, ResolveContext } from "../../runtime/registry";
import { count, plural } from "../../domain/plural";
import type { SkillState } from "../../domain/vocabulary";
import { resolveCached } from "../catalog/resolution";
import { readStoredPolicy } from "../policy/store";
import { resolutionFor, type Viewer, type WhatIf } from "./context";
import { applyPolicyChange, type PolicyChange } from "./policy-rules";

interface Where {
  layer: LayerName;
  plugin?: string;
}

export interface PolicyEffect {
  name: string;
  /** The definition agents get today and after the change (null: none). */
  before: Where | null;
  after: Where | null;
  /** For a name that loses its definition: the state that definition takes and why. */
  status?: SkillState;
  reason?: string;
}

export interface PolicyPreview {
  deactivated: PolicyEffect[];
  activated: PolicyEffect[];
  switched: PolicyEffect[];
  /** One line per kind of effect, for a person ("4 skills become inactive until approved: a, b, c, d"). */
  lines: string[];
  /** Whose view was resolved and in which context (as the Layers page's what-if). */
  userId: string;
}

/** Names shown in a line; the rest are counted. */
const NAMES_SHOWN = 12;

const whereOf = (r: Resolution): Where | null => (r.active ? { layer: r.active.layer, ...(r.active.plugin ? { plugin: r.active.plugin } : {}) } : null);
const same = (a: Where | null, b: Where | null) => a?.layer === b?.layer && a?.plugin === b?.plugin;
const label = (w: Where) => (w.plugin ? `${w.layer} (${w.plugin})` : w.layer);

/** The effects of going from one resolution context to another, by name. */
export function compareResolutions(before: Record<string, Resolution>, after: Record<string, Resolution>): Omit<PolicyPreview, "lines" | "userId"> {
  const out: Omit<PolicyPreview, "lines" | "userId"> = { deactivated: [], activated: [], switched: [] };
  for (const name of Object.keys(after).sort()) {
    const b = before[name];
    const a = after[name]!;
    const was = b ? whereOf(b) : null;
    const now = whereOf(a);
    if (same(was, now)) continue;
    if (was && !now) {
      // The definition agents had: its state under the new policy says why it is gone.
      const c = a.candidates.find((x) => x.entry.id === b!.active!.id);
      out.deactivated.push({ name, before: was, after: null, ...(c ? { status: c.status, reason: c.reason } : {}) });
    } else if (!was && now) out.activated.push({ name, before: null, after: now });
    else out.switched.push({ name, before: was, after: now });
  }
  return out;
}

const WHY: Partial<Record<SkillState, string>> = {
  "pending-approval": "until approved",
  blocked: "(blocked by the policy)",
  disabled: "(disabled by the policy)",
};

const names = (effects: PolicyEffect[]) => {
  const shown = effects.slice(0, NAMES_SHOWN).map((e) => e.name).join(", ");
  return effects.length > NAMES_SHOWN ? `${shown} and ${effects.length - NAMES_SHOWN} more` : shown;
};

/** The preview's sentences; "Nothing changes for any skill." when the change moves no definition. */
export function previewLines(p: Omit<PolicyPreview, "lines" | "userId">): string[] {
  const lines: string[] = [];
  const byStatus = new Map<string, PolicyEffect[]>();
  for (const e of p.deactivated) byStatus.set(e.status ?? "", [...(byStatus.get(e.status ?? "") ?? []), e]);
  for (const [status, effects] of byStatus) {
    const why = WHY[status as SkillState] ?? (status ? `(${status.replace("-", " ")})` : "");
    lines.push(`${count(effects.length, "skill")} ${plural(effects.length, "becomes", "become")} inactive${why ? ` ${why}` : ""}: ${names(effects)}`);
  }
  if (p.activated.length) lines.push(`${count(p.activated.length, "skill")} ${plural(p.activated.length, "becomes", "become")} active: ${names(p.activated)}`);
  for (const e of p.switched.slice(0, NAMES_SHOWN)) lines.push(`${e.name}: agents get the ${label(e.after!)} definition instead of the ${label(e.before!)} one`);
  if (p.switched.length > NAMES_SHOWN) lines.push(`${count(p.switched.length - NAMES_SHOWN, "more skill")} change definition`);
  return lines.length ? lines : ["Nothing changes for any skill."];
}

/** What `change` would do to the skills agents get in this view; throws as changePolicy would on bad input. */
export async function previewPolicyChange(db: Db, dataHome: DataHome, viewer: Viewer, change: PolicyChange, w: WhatIf = {}): Promise<PolicyPreview> {
  const { index, ctx, userId } = await resolutionFor(db, dataHome, viewer, w);
  const changed = applyPolicyChange(await readStoredPolicy(db), change);
  // Approvals stay as they are: a change of the stored rules never decides one.
  const after: ResolveContext = { ...ctx, policy: { ...changed, approvedDigests: ctx.policy?.approvedDigests ?? {} } };
  const effects = compareResolutions(resolveCached(index, ctx).byName, resolveCached(index, after).byName);
  return { ...effects, lines: previewLines(effects), userId };
}
