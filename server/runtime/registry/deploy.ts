// `omniforge skill deploy`: copies a definition (the active one, or a chosen one) into the enterprise,
// personal or project layer, atomically, and reports what changes: the active definition before and after.
import path from "node:path";
import { ensurePrivateHome, isInside, isSafeSegment, type LayerConfig, type LayerName, writableRoot } from "./layers";
import { parseSkillRef, resolve } from "./resolve";
import { readSkillFolder, RegistryError, SkillCopyError, writeSkillFolder } from "./skill-files";
import { SkillIndex } from "./skill-index";
import type { ResolveContext, SkillEntry } from "./types";

export class DeployError extends RegistryError {
  constructor(message: string, code = "deploy.refused") {
    super(message, code);
  }
}

export interface DeployOptions {
  /** Copy this definition instead of the active one: a layer (and plugin), or the skill folder. */
  from?: { layer: LayerName; plugin?: string } | { dir: string };
  force?: boolean;
  /** The context whose active definition is reported before/after (default: no agent, tenant or environment). */
  ctx?: ResolveContext;
}

export interface DefinitionSummary {
  layer: LayerName;
  plugin?: string;
  dir: string;
  digest: string;
}

export interface DeployReport {
  name: string;
  from: DefinitionSummary;
  to: { layer: LayerName; dir: string };
  replaced: boolean;
  before: DefinitionSummary | null;
  after: DefinitionSummary | null;
  /** Whether the active definition (for ctx) is a different one after the deploy. */
  activeChanged: boolean;
  /** "What changes", for a person. */
  message: string;
}

const summary = (e: SkillEntry | null): DefinitionSummary | null =>
  e ? { layer: e.layer, ...(e.plugin ? { plugin: e.plugin } : {}), dir: e.dir, digest: e.digest } : null;

const describe = (w: DefinitionSummary | null) =>
  w ? `the ${w.layer}${w.plugin ? ` (plugin "${w.plugin}")` : ""} definition at ${w.dir}` : "no definition";

export function deploySkill(
  source: SkillIndex | LayerConfig,
  name: string,
  targetLayer: LayerName,
  opts: DeployOptions = {},
): DeployReport {
  if (targetLayer === "plugin") throw new DeployError("deploy targets enterprise, personal or project; plugins are installed with `skill install`", "deploy.layer");
  const ref = parseSkillRef(name);
  if (!isSafeSegment(ref.name)) throw new DeployError(`"${ref.name}" is not a valid skill name`, "deploy.name");
  const index = source instanceof SkillIndex ? source : SkillIndex.build(source);
  const ctx = opts.ctx ?? {};
  const before = resolve(index, ref.name, ctx);
  let chosen: SkillEntry | null | undefined;
  if (opts.from && "dir" in opts.from) {
    const dir = path.resolve(opts.from.dir);
    chosen = index.definitions(ref.name).find((e) => e.dir === dir);
  } else if (opts.from) {
    const f = opts.from;
    chosen = index.definitions(ref.name).find((e) => e.layer === f.layer && (!f.plugin || e.plugin === f.plugin));
  } else if (ref.plugin !== undefined) {
    chosen = index.definitions(ref.name).find((e) => e.layer === "plugin" && e.plugin === ref.plugin);
  } else {
    chosen = before.active;
  }
  if (!chosen) {
    throw new DeployError(
      before.candidates.length
        ? `no definition of "${name}" to deploy matches (${before.summary})`
        : `no skill named "${ref.name}" in any layer`,
      "deploy.not-found",
    );
  }
  if (!chosen.loadable) throw new DeployError(`the ${chosen.layer} definition of "${ref.name}" does not load; fix it before deploying`, "deploy.invalid");
  const target = path.join(writableRoot(index.config, targetLayer), ref.name);
  if (chosen.dir === target) throw new DeployError(`"${ref.name}" is already at ${target}`, "deploy.same");
  if (isInside(chosen.dir, target) || isInside(target, chosen.dir)) {
    throw new DeployError(`cannot copy ${chosen.dir} into ${target}: one folder contains the other`, "deploy.nested");
  }
  let replaced: boolean;
  ensurePrivateHome(index.config, target);
  try {
    replaced = writeSkillFolder(target, readSkillFolder(chosen.dir), { force: opts.force }).replaced;
  } catch (e) {
    if (e instanceof SkillCopyError) {
      throw new DeployError(e.message.includes("already exists") ? `${target} already exists; use --force to replace it` : e.message, "deploy.copy");
    }
    throw e;
  }
  index.refresh([target]);
  const after = resolve(index, ref.name, ctx);
  const b = summary(before.active);
  const a = summary(after.active);
  const activeChanged = b?.dir !== a?.dir || b?.digest !== a?.digest;
  const message = activeChanged
    ? `${ref.name}: the active definition changes from ${describe(b)} to ${describe(a)}`
    : `${ref.name}: the active definition stays ${describe(a)}` +
      (a?.dir !== target ? ` (the copy in the ${targetLayer} layer is shadowed: ${after.candidates.find((c) => c.entry.dir === target)?.reason ?? "not active"})` : "");
  return {
    name: ref.name,
    from: summary(chosen)!,
    to: { layer: targetLayer, dir: target },
    replaced,
    before: b,
    after: a,
    activeChanged,
    message,
  };
}
