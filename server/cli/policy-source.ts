// The one place the command line gets its policy: a --policy FILE.json when given, else the console's own stored
// policy and approvals, read (only) from the console's PostgreSQL when DATABASE_URL is set, as the console itself
// picks its database, or from the data home's console.db, else none (console-db.ts decides). Every command that reads
// skills (list, search, eval, agent run, deploy) resolves with it, so the CLI never offers what the console blocks.
// The console reader (SQLite, drizzle, the schema) is imported only when a console may be there: on a plain skills
// folder `omniforge skill list` would otherwise spend most of its start loading it.
import fs from "node:fs";
import path from "node:path";
import type { LayerConfig } from "../runtime/registry/layers";
import type { RegistryPolicy, ResolveContext } from "../runtime/registry/types";
import { configContext, readSkillsConfig, type SkillsConfig } from "../runtime/registry/config-file";
import { environmentOf } from "./args";
import { SETTINGS_FILE_MAX_BYTES } from "../domain/vocabulary";
import { FileReadError, readRegularTextFile } from "../runtime/read-file";
import type { EnvSource } from "../../env";

export interface PolicySource {
  policy?: RegistryPolicy;
  /** Where it came from: the file, the console.db, or null (no policy: every definition may be active). */
  from: string | null;
}

/**
 * A --policy file, checked whole by `omniforge policy import`'s own check (JSON is YAML): a wrong field or entry
 * refuses the file with one line naming it, instead of a crash, a silently ignored typo or a half-applied policy.
 */
async function readPolicyFile(file: string, shown: string): Promise<RegistryPolicy> {
  let text: string;
  try {
    text = readRegularTextFile(file, SETTINGS_FILE_MAX_BYTES);
  } catch (e) {
    throw new Error(`cannot read the policy file ${shown}: ${e instanceof FileReadError ? e.message : (e as Error).message}`);
  }
  // Loaded here, not at the top: a run without --policy never needs the check or the YAML parser.
  const { checkPolicyDocument } = await import("../services/governance/policy-rules");
  const checked = checkPolicyDocument(text);
  if ("problems" in checked) throw new Error(`the policy file ${shown} was refused: ${checked.problems.join("; ")}`);
  return checked.policy;
}

/** Throws with a readable message when the file or the console database cannot be read. */
export async function policyFor(config: LayerConfig, opts: { file?: string; cwd: string; env?: EnvSource }): Promise<PolicySource> {
  if (opts.file) {
    const file = path.resolve(opts.cwd, opts.file);
    return { policy: await readPolicyFile(file, opts.file), from: file };
  }
  // The console's reader (SQLite, drizzle, the schema) is loaded only when a console may be there.
  if (!opts.env?.DATABASE_URL && !fs.existsSync(path.join(path.resolve(config.home), "console.db"))) return { from: null };
  const [{ readConsole }, { effectivePolicy }] = await Promise.all([import("./console-db"), import("../services/policy/store")]);
  const read = await readConsole(config.home, opts.env ?? {}, (db) => effectivePolicy(db, { userId: config.userId ?? null }));
  return read ? { policy: read.value, from: read.where } : { from: null };
}

/** The resolution context of a command: scope values from its flags, the policy from policyFor. */
export async function contextFor(
  config: LayerConfig,
  values: { env?: string; environment?: string; agent?: string; tenant?: string; policy?: string },
  cwd: string,
  env: EnvSource,
): Promise<{ ctx: ResolveContext; policyFrom: string | null; settings: SkillsConfig }> {
  const source = await policyFor(config, { file: values.policy, cwd, env });
  const settings = readSkillsConfig(config.home, config.projectRoot);
  // The same defaults as the console's (config.yaml `defaults`, OMNIFORGE_DEFAULT_*): one rule for both. Their
  // reader checks values through env.ts, whose schema library costs about 70 ms to load: it is loaded only when
  // one of them is set (unset or empty, they change nothing).
  const scopeSet = Object.keys(env).some((k) => k.startsWith("OMNIFORGE_DEFAULT_") && env[k]);
  const fromConfig = configContext(settings);
  const withScope = scopeSet ? (await import("../services/skills-config")).withEnvScopeDefaults(fromConfig, env) : fromConfig;
  const defaults = env.OMNIFORGE_SKILLS_ENABLED ? (await import("../services/skills-config")).withEnvSkillsEnabled(withScope, env) : withScope;
  const ctx: ResolveContext = { environment: environmentOf(values), agent: values.agent, tenant: values.tenant, ...defaults };
  if (source.policy) ctx.policy = source.policy;
  return { ctx, policyFrom: source.from, settings };
}
