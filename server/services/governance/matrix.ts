// The override matrix: one row per skill name, one column per layer, each cell the status of that layer's
// definitions as the registry's resolution decided it. Nothing here orders or judges definitions itself.
// The matrix and the what-if listing read the one cached resolution (catalog/resolution.ts) that the skills list
// and the playground use: a what-if only picks whose layer and which scope, real inputs that are part of its key.
import fs from "node:fs";
import { assertInsideLayer, assertLayerFolder } from "../../runtime/registry/confine";
import type { DataHome } from "../../config";
import {
  entryValidity,
  LAYER_ORDER,
  resolve,
  type DefinitionSource,
  type LayerName,
  type Resolution,
  type ResolveContext,
  type SkillIndex,
} from "../../runtime/registry";
import type { SkillScope } from "../../runtime/skill/types";
import type { SkillState } from "../../domain/vocabulary";
import { resolveCached } from "../catalog/resolution";
import { displayPath } from "./context";
import { GovernanceError } from "./errors";

export interface MatrixCell {
  /** Index id (the skill folder) of the definition, used to ask for its chain or its SKILL.md. */
  id: string;
  status: SkillState;
  plugin?: string;
}

export interface MatrixRow {
  name: string;
  active: { layer: LayerName; plugin?: string } | null;
  definitions: number;
  /** More than one definition of the name exists (in any layer): the rows a person looks at first. */
  overridden: boolean;
  hasWarnings: boolean;
  cells: Record<LayerName, MatrixCell[]>;
}

export interface LayerMatrix {
  rows: MatrixRow[];
  counts: { names: number; definitions: number; overridden: number; active: number };
}

const emptyCells = (): Record<LayerName, MatrixCell[]> => ({ enterprise: [], personal: [], project: [], plugin: [] });

export function buildMatrix(index: SkillIndex, ctx: ResolveContext): LayerMatrix {
  const all = resolveCached(index, ctx);
  const rows: MatrixRow[] = [];
  let definitions = 0;
  for (const name of Object.keys(all.byName).sort()) {
    const r = all.byName[name]!;
    const cells = emptyCells();
    for (const c of r.candidates) {
      cells[c.entry.layer].push({ id: c.entry.id, status: c.status, ...(c.entry.plugin ? { plugin: c.entry.plugin } : {}) });
    }
    definitions += r.candidates.length;
    rows.push({
      name,
      active: r.active ? { layer: r.active.layer, ...(r.active.plugin ? { plugin: r.active.plugin } : {}) } : null,
      definitions: r.candidates.length,
      overridden: r.candidates.length > 1,
      hasWarnings: r.warnings.length > 0,
      cells,
    });
  }
  return {
    rows,
    counts: { names: rows.length, definitions, overridden: rows.filter((r) => r.overridden).length, active: all.skills.length },
  };
}

/** What an agent in this context would be offered: one active definition per name (the playground's listing). */
export function effectiveSkills(index: SkillIndex, ctx: ResolveContext) {
  return resolveCached(index, ctx).skills.map((s) => ({ name: s.name, layer: s.layer, plugin: s.plugin ?? null, description: s.description }));
}

export interface ChainLink {
  id: string;
  layer: LayerName;
  plugin?: string;
  status: SkillState;
  reason: string;
  priority: number;
  digest: string;
  where: string;
  description: string;
  hasScripts: boolean;
  scope?: SkillScope;
  errors: number;
  warnings: number;
  /** For a definition waiting for approval: the decision on this exact version so far, if any. */
  approval?: { status: "pending" | "approved" | "rejected"; comment: string; decidedBy: string | null; requestedAt: number };
}

export interface Explanation {
  name: string;
  summary: string;
  warnings: string[];
  activeId: string | null;
  /** Highest precedence first (the registry's order). */
  chain: ChainLink[];
  layerOrder: readonly LayerName[];
  /** The name itself is on the policy's block list (so the view can offer "unblock"). */
  onBlockList: boolean;
}

export function explain(index: DefinitionSource, name: string, ctx: ResolveContext, dataHome: DataHome): Explanation {
  const r = resolve(index, name, ctx);
  if (!r.candidates.length) throw new GovernanceError("NOT_FOUND", `no skill named "${name}" in any layer`);
  return {
    name: r.name,
    summary: r.summary,
    warnings: r.warnings,
    activeId: r.active?.id ?? null,
    layerOrder: LAYER_ORDER,
    onBlockList: !!ctx.policy?.blockedNames.includes(r.name),
    chain: r.candidates.map((c) => chainLink(c, ctx, dataHome)),
  };
}

/** One definition of the chain, its counts of errors and warnings as the policy judges them (validity.ts). */
function chainLink(c: Resolution["candidates"][number], ctx: ResolveContext, dataHome: DataHome): ChainLink {
  const { diagnostics } = entryValidity(c.entry, ctx.policy);
  return {
    id: c.entry.id,
    layer: c.entry.layer,
    ...(c.entry.plugin ? { plugin: c.entry.plugin } : {}),
    status: c.status,
    reason: c.reason,
    priority: c.entry.priority,
    digest: c.entry.digest,
    where: displayPath(c.entry.dir, dataHome),
    description: c.entry.description,
    hasScripts: c.entry.hasScripts,
    ...(c.entry.scope ? { scope: c.entry.scope } : {}),
    errors: diagnostics.filter((d) => d.severity === "error").length,
    warnings: diagnostics.filter((d) => d.severity === "warning").length,
  };
}

const MAX_SKILL_MD = 1024 * 1024;

/** SKILL.md of one definition the index knows (the id is never used as a free path). */
export function readDefinition(index: SkillIndex, id: string, dataHome: DataHome): { id: string; layer: LayerName; plugin?: string; where: string; content: string } {
  const entry = index.get(id);
  if (!entry) throw new GovernanceError("NOT_FOUND", "that definition is not in this view any more; reload the layers");
  let content: string;
  try {
    // A layer folder that leaves its project or data home, or a linked skill folder that leaves its layer, is listed, never read.
    const root = index.layerRoots().find((r) => r.dir === entry.root);
    if (root) assertLayerFolder(root);
    assertInsideLayer(entry.root, entry.file, "SKILL.md");
    const st = fs.lstatSync(entry.file);
    if (!st.isFile()) throw new Error("not a regular file");
    if (st.size > MAX_SKILL_MD) throw new Error(`larger than ${MAX_SKILL_MD} bytes`);
    content = fs.readFileSync(entry.file, "utf8");
  } catch (e) {
    throw new GovernanceError("NOT_FOUND", `cannot read SKILL.md of the ${entry.layer} definition: ${(e as Error).message}`);
  }
  return { id: entry.id, layer: entry.layer, ...(entry.plugin ? { plugin: entry.plugin } : {}), where: displayPath(entry.dir, dataHome), content };
}
