// The configuration file (issue #14, seed 003): `<project>/.omniforge/config.yaml` and `<home>/config.yaml`, the
// project's keys winning. Checked whole, with an error naming the key; what it sets becomes part of the
// resolution context, so the console and the CLI apply it alike.
//   skills.enabled: false      skill loading is off (every definition is disabled, none offered)
//   disabled_skills: [names]   these names are disabled in every layer
//   precedence: project-first  the project's skills win over the user's own (enterprise still wins)
//   listing.budget: 8000       characters of the skill listing (default: 1% of the model's context)
//   mode: tool|prompt|orchestrated   the default disclosure mode
//   defaults: {environment: prod, agent: x, tenant: y}   the scope context of a caller that names none
import path from "node:path";
import { yamlModule } from "../skill/yaml-module";
import { DISCLOSURE_MODES, SETTINGS_FILE_MAX_BYTES, type DisclosureMode } from "../../domain/vocabulary";
import { FileReadError, readRegularTextFile } from "../read-file";
import type { ScopeDefaults } from "./types";
import { POLICY_NAME_MAX_CHARS } from "../../domain/limits";
import { policyName } from "./policy";

export const PRECEDENCES = ["default", "project-first"] as const;
export type Precedence = (typeof PRECEDENCES)[number];

export interface SkillsConfig {
  skillsEnabled?: boolean;
  disabledSkills?: string[];
  precedence?: Precedence;
  listingBudget?: number;
  mode?: DisclosureMode;
  /** defaults.environment / .agent / .tenant: used when a caller names none (scoped skills match nothing without). */
  defaults?: { environment?: string; agent?: string; tenant?: string };
  /** The file each default came from. */
  defaultsFrom?: Partial<Record<"environment" | "agent" | "tenant", string>>;
  /** The files it came from, project last. */
  sources: string[];
}

export class ConfigFileError extends Error {}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** One file's settings; throws ConfigFileError naming the file and the key. */
export function parseConfigFile(text: string, file: string): Omit<SkillsConfig, "sources" | "defaultsFrom"> {
  const fail = (key: string, why: string) => new ConfigFileError(`${file}: ${key}: ${why}`);
  // A setting that takes one of a fixed list of words.
  const oneOf = <T extends string>(key: string, v: unknown, values: readonly T[], sep: string): T => {
    if (!(values as readonly unknown[]).includes(v)) throw fail(key, `must be ${values.join(sep)}`);
    return v as T;
  };
  let raw: unknown;
  try {
    raw = yamlModule().parse(text); // loaded only when a config.yaml exists
  } catch (e) {
    throw new ConfigFileError(`${file}: not valid YAML: ${(e as Error).message.split("\n")[0]}`);
  }
  if (raw === null || raw === undefined) return {};
  if (typeof raw !== "object" || Array.isArray(raw)) throw new ConfigFileError(`${file}: must be a mapping of settings`);
  const o = raw as Record<string, unknown>;
  const out: Omit<SkillsConfig, "sources" | "defaultsFrom"> = {};
  for (const key of Object.keys(o)) {
    const v = o[key];
    switch (key) {
      case "skills": {
        if (!v || typeof v !== "object" || Array.isArray(v)) throw fail("skills", "must be a mapping (skills.enabled: true|false)");
        for (const [k, x] of Object.entries(v)) {
          if (k !== "enabled") throw fail(`skills.${k}`, "unknown key (known: skills.enabled)");
          if (typeof x !== "boolean") throw fail("skills.enabled", "must be true or false");
          out.skillsEnabled = x;
        }
        break;
      }
      case "disabled_skills":
        if (!Array.isArray(v) || !v.every((n) => typeof n === "string" && policyName(n) !== null)) {
          throw fail("disabled_skills", `must be a list of skill names (1 to ${POLICY_NAME_MAX_CHARS} characters each)`);
        }
        out.disabledSkills = v.map((n: string) => policyName(n)!);
        break;
      case "precedence":
        out.precedence = oneOf("precedence", v, PRECEDENCES, " or ");
        break;
      case "listing": {
        const budget = (v as { budget?: unknown } | null)?.budget;
        if (!v || typeof v !== "object" || Object.keys(v).some((k) => k !== "budget")) throw fail("listing", "only listing.budget is known");
        if (!Number.isInteger(budget) || (budget as number) < 200 || (budget as number) > 200_000) throw fail("listing.budget", "must be a whole number of characters from 200 to 200000");
        out.listingBudget = budget as number;
        break;
      }
      case "mode":
        out.mode = oneOf("mode", v, DISCLOSURE_MODES, ", ");
        break;
      case "defaults": {
        if (!v || typeof v !== "object" || Array.isArray(v)) throw fail("defaults", "must be a mapping (defaults.environment, defaults.agent, defaults.tenant)");
        out.defaults = {};
        for (const [k, x] of Object.entries(v)) {
          if (k !== "environment" && k !== "agent" && k !== "tenant") throw fail(`defaults.${k}`, "unknown key (known: defaults.environment, defaults.agent, defaults.tenant)");
          if (typeof x !== "string" || !NAME.test(x)) throw fail(`defaults.${k}`, "must be a name (letters, digits, . _ -)");
          out.defaults[k] = x;
        }
        break;
      }
      default:
        throw fail(key, "unknown key (known: skills.enabled, disabled_skills, precedence, listing.budget, mode, defaults)");
    }
  }
  return out;
}

/** The resolution context fields a config sets. */
export function configContext(c: SkillsConfig): { precedence?: Precedence; disabledNames?: string[]; skillsEnabled?: boolean; scopeDefaults?: ScopeDefaults } {
  return {
    ...(c.defaults && Object.keys(c.defaults).length ? { scopeDefaults: { ...c.defaults, from: c.defaultsFrom ?? {} } } : {}),
    ...(c.precedence ? { precedence: c.precedence } : {}),
    ...(c.disabledSkills?.length ? { disabledNames: c.disabledSkills } : {}),
    ...(c.skillsEnabled === false ? { skillsEnabled: false } : {}),
  };
}

/** The data home's config.yaml, then the project's .omniforge/config.yaml over it; absent files set nothing. */
export function readSkillsConfig(home: string, projectRoot: string): SkillsConfig {
  const files = [path.join(home, "config.yaml"), path.join(projectRoot, ".omniforge", "config.yaml")];
  const out: SkillsConfig = { sources: [] };
  for (const file of files) {
    let text: string;
    try {
      text = readRegularTextFile(file, SETTINGS_FILE_MAX_BYTES);
    } catch (e) {
      if (e instanceof FileReadError && e.problem === "missing") continue;
      // A folder, pipe or device in its place, or an unreadable file, is a mistake to name, not a file to skip.
      throw new ConfigFileError(e instanceof FileReadError ? e.message : `${file}: ${(e as Error).message}`);
    }
    const parsed = parseConfigFile(text, file);
    // Each default key on its own: the project may set the environment and keep the home's tenant.
    const defaults = { ...out.defaults, ...parsed.defaults };
    for (const k of Object.keys(parsed.defaults ?? {}) as ("environment" | "agent" | "tenant")[]) out.defaultsFrom = { ...out.defaultsFrom, [k]: file };
    Object.assign(out, parsed);
    if (Object.keys(defaults).length) out.defaults = defaults;
    out.sources.push(file);
  }
  return out;
}
