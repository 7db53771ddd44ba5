// config.yaml for the console: the same reading as the CLI's; a wrong file is a clear ServiceError naming the key
// (shown on the page), never a crash.
import { setting, type EnvSource } from "../../env";
import { ServiceError } from "../domain/errors";
import { ConfigFileError, configContext, readSkillsConfig } from "../runtime/registry/config-file";
import type { ScopeDefaults } from "../runtime/registry/types";

export function configContextFor(home: string, projectRoot: string, source?: EnvSource): ReturnType<typeof configContext> {
  try {
    return withEnvSkillsEnabled(withEnvScopeDefaults(configContext(readSkillsConfig(home, projectRoot)), source), source);
  } catch (e) {
    if (e instanceof ConfigFileError) throw new ServiceError("PRECONDITION_FAILED", `The skills configuration is wrong, fix it first: ${e.message}`);
    throw e;
  }
}

/** OMNIFORGE_SKILLS_ENABLED (env.ts) over config.yaml's `skills.enabled`; unset, the file decides. */
export function withEnvSkillsEnabled<T extends { skillsEnabled?: boolean }>(ctx: T, source?: EnvSource): T {
  const on = setting("OMNIFORGE_SKILLS_ENABLED", source);
  if (on === undefined) return ctx;
  const out = { ...ctx };
  if (on) delete out.skillsEnabled;
  else out.skillsEnabled = false;
  return out;
}

const DEFAULT_SETTINGS = {
  environment: "OMNIFORGE_DEFAULT_ENVIRONMENT",
  agent: "OMNIFORGE_DEFAULT_AGENT",
  tenant: "OMNIFORGE_DEFAULT_TENANT",
} as const;

/**
 * The scope defaults of the console and the CLI alike: OMNIFORGE_DEFAULT_* (env.ts) over config.yaml's `defaults`,
 * each key on its own, with where each came from for the why of a resolution.
 */
export function withEnvScopeDefaults<T extends { scopeDefaults?: ScopeDefaults }>(ctx: T, source?: EnvSource): T {
  const out: ScopeDefaults = { ...ctx.scopeDefaults, from: { ...ctx.scopeDefaults?.from } };
  let any = Object.keys(ctx.scopeDefaults ?? {}).some((k) => k !== "from");
  for (const [key, name] of Object.entries(DEFAULT_SETTINGS) as [keyof typeof DEFAULT_SETTINGS, (typeof DEFAULT_SETTINGS)[keyof typeof DEFAULT_SETTINGS]][]) {
    const value = setting(name, source);
    if (value === undefined) continue;
    out[key] = value;
    out.from![key] = name;
    any = true;
  }
  return any ? { ...ctx, scopeDefaults: out } : ctx;
}
