// The registry's vocabulary: index entries (stage-1 metadata), policy, resolution context and results.
import type { Diagnostic, SkillScope } from "../skill/types";
import type { SkillState } from "../../domain/vocabulary";
import type { LayerName } from "./layers";

/** Stage-1 metadata of one skill definition (one SKILL.md in one layer). No body: that loads on activation. */
export interface SkillEntry {
  /** Stable key: the absolute skill folder. */
  id: string;
  /** The frontmatter name; the folder name when the file does not load (so broken files stay listed). */
  name: string;
  description: string;
  layer: LayerName;
  /** The layer root the skill was found under. */
  root: string;
  dir: string;
  /** Absolute SKILL.md path. */
  file: string;
  /** sha256 of SKILL.md ("" when unreadable). */
  digest: string;
  tags: string[];
  priority: number;
  plugin?: string;
  /** ISO install time of the plugin (plugin layer only). */
  installedAt?: string;
  scope?: SkillScope;
  hasScripts: boolean;
  /**
   * What an approval is bound to: the SKILL.md digest, combined with a digest of every file under scripts/
   * when the skill has scripts (so editing a script needs a new approval too). Store this in approvedDigests.
   */
  approvalDigest: string;
  /** Stamp and digest of scripts/ (absent without a scripts/ folder). */
  scripts?: { stamp: string; digest: string };
  loadable: boolean;
  valid: boolean;
  /**
   * ok; warnings (valid, with warnings); errors (loads leniently but breaks a rule, e.g. a name that differs
   * from its folder under the spec); invalid (does not load: no frontmatter, broken YAML).
   */
  status: "ok" | "warnings" | "errors" | "invalid";
  diagnostics: Diagnostic[];
  /** SKILL.md mtime (ms) and size, used by warm rebuilds to skip unchanged files. */
  mtimeMs: number;
  size: number;
  /** SKILL.md ctime (ms), compared too when known: it moves even when a tool puts mtime and size back. */
  ctimeMs?: number;
  /** Extension fields a resolver or executor may need without the body. */
  allowedTools?: string[];
  context?: "inherit" | "fork";
  /** The file itself says `disabled: true` (Gemini CLI's flag). */
  disabledInFile?: boolean;
}

/** Admin policy, pure data (persisted by the services layer). */
export interface RegistryPolicy {
  /** Names blocked everywhere, in every layer. */
  blockedNames: string[];
  /** Definitions switched off; `plugin` narrows a plugin-layer rule to one plugin. */
  disabled: { name: string; layer: LayerName; plugin?: string }[];
  /** When set, only these names may be active. */
  allowlist?: string[];
  /**
   * Names matching any of these (a /regex/ in slashes, else a substring) are blocked. Expressions run on
   * name-pattern.ts's linear-time matcher: no lookarounds or backreferences; a name's first 128 characters.
   */
  forbiddenNamePatterns?: string[];
  /** Skills with a scripts/ folder need an approval of their exact digest (enterprise is exempt). */
  requireApprovalForScripts?: boolean;
  /** Project-layer skills need an approval of their exact digest. */
  requireApprovalForProject?: boolean;
  /** A git source's update waits for an approval of each skill it changes before the pin moves (#39). */
  requireApprovalForSources?: boolean;
  /**
   * A name that differs from its folder makes the definition invalid (seed 003's rule). Off, such a skill loads
   * under its name with a warning, as the reference tool and Claude Code do.
   */
  nameMustMatchFolder?: boolean;
  /**
   * Names holding a reserved word (claude, anthropic, gemini, openai, infer: seed 003) are no error under the
   * omniforge rules: the administrator allows them explicitly (validity.ts applies it on every screen).
   */
  allowReservedNames?: boolean;
  /** approvalKey(entry) -> approved entry.approvalDigest. Editing SKILL.md or a script needs a new approval. */
  approvedDigests?: Record<string, string>;
}

export const EMPTY_POLICY: RegistryPolicy = { blockedNames: [], disabled: [] };

/** What an admin set for callers that name no environment, agent or tenant, and where it was set. */
export interface ScopeDefaults {
  environment?: string;
  agent?: string;
  tenant?: string;
  /** Where these came from, for the why of a resolution (e.g. "OMNIFORGE_DEFAULT_ENVIRONMENT"). */
  from?: Partial<Record<"environment" | "agent" | "tenant", string>>;
}

export interface ResolveContext {
  agent?: string;
  tenant?: string;
  environment?: string;
  /** Used when the caller gives no value; a field with neither matches no scoped skill. */
  scopeDefaults?: ScopeDefaults;
  policy?: RegistryPolicy;
  /** From config.yaml (config-file.ts): the order of the personal and project layers, names disabled, loading off. */
  precedence?: "default" | "project-first";
  disabledNames?: string[];
  skillsEnabled?: boolean;
}

export interface Candidate {
  entry: SkillEntry;
  /** The domain's skill state: exactly one candidate of a name is "active" in a context. */
  status: SkillState;
  /** A sentence a person can read, e.g. "shadowed by the enterprise definition: enterprise > personal > ...". */
  reason: string;
}

export interface Resolution {
  /** The name asked for (without @plugin). */
  name: string;
  /** Set when the request was `name@plugin`. */
  plugin?: string;
  /** The definition chosen for the name in this context, if any. */
  active: SkillEntry | null;
  /** Every definition of the name, in precedence order (layer, then priority, then install time). */
  candidates: Candidate[];
  warnings: string[];
  /** One sentence: what is active and why, or why nothing is. */
  summary: string;
}

export interface EffectiveSkills {
  /** One active definition per name, sorted by name. */
  skills: SkillEntry[];
  /** Full explanation per name (including names with no active definition). */
  byName: Record<string, Resolution>;
}
