// Frontmatter fields as data: the validator, the editor's completion and hover help all read this one list,
// so a field documented here is a field the validator knows (and the other way round).

export type FieldKind = "spec" | "extension" | "vendor";

export interface FieldDoc {
  /** Key as written in the frontmatter (case-sensitive). */
  name: string;
  /** spec: agentskills.io; extension: OmniForge (DESIGN.md); vendor: another agent's field, accepted with a warning. */
  kind: FieldKind;
  /** Human-readable YAML type, e.g. "string", "list of strings", "mapping". */
  type: string;
  description: string;
  required?: boolean;
  /** Allowed values, when the field is an enumeration. */
  values?: readonly string[];
  /** Sub-keys of a mapping field. */
  children?: readonly FieldDoc[];
  /** Which tool uses a vendor field. */
  origin?: string;
}

// One maker per kind: an entry states only what differs (name, type, text and any values, sub-keys or origin).
type Extra = Pick<FieldDoc, "required" | "values" | "children" | "origin">;
const ofKind =
  (kind: FieldKind) =>
  (name: string, type: string, description: string, extra: Extra = {}): FieldDoc => ({ name, kind, type, description, ...extra });
const spec = ofKind("spec");
const extension = ofKind("extension");
const vendor = (origin: string, name: string, type: string, description: string) => ofKind("vendor")(name, type, description, { origin });

export const SPEC_FIELD_DOCS: readonly FieldDoc[] = [
  spec(
    "name",
    "string",
    "1-64 characters: lowercase letters, digits and single hyphens (no leading, trailing or double hyphen). " +
      "Must equal the skill folder's name (compared after NFKC normalisation).",
    { required: true },
  ),
  spec("description", "string", "1-1024 characters. What the skill does AND when to use it, with the keywords an agent will match on.", {
    required: true,
  }),
  spec("license", "string", 'License name ("MIT", "Apache-2.0") or a reference to a bundled file ("Proprietary. LICENSE.txt has full terms").'),
  spec("compatibility", "string", 'At most 500 characters. Environment requirements, e.g. "Requires Node.js 18+ and Docker".'),
  spec("metadata", "mapping of string to string", "Free key/value pairs (version, author, updated...). Values must be plain strings, not lists or mappings."),
  spec(
    "allowed-tools",
    "string",
    'Space-separated tool patterns the skill may use, e.g. "Bash(git:*) Read Write" (experimental in the spec). ' +
      "The omniforge rules also accept a YAML list and commas.",
  ),
];

export const EXTENSION_FIELD_DOCS: readonly FieldDoc[] = [
  extension("model", "string", "Model to use while the skill is active (provider-specific id). Omit to keep the session's model."),
  extension(
    "context",
    "string",
    "inherit (default): the skill runs in the current conversation. fork: a sub-agent runs the skill with its body " +
      "as instructions and none of the parent conversation.",
    { values: ["inherit", "fork"] },
  ),
  extension(
    "agent",
    "string",
    "Which agent type runs a forked skill (used with context: fork): general-purpose (the default, every tool), Explore or Plan (read-only: " +
      "no tool that writes files or runs commands). Another name runs as general-purpose, and the answer says so.",
  ),
  extension("hooks", "mapping", "Scripts inside the skill folder run around activation.", {
    children: [
      extension("pre", "string", "Script path (relative to the skill folder) run before the skill starts."),
      extension("post", "string", "Script path (relative to the skill folder) run after the skill ends."),
    ],
  }),
  extension("execution", "mapping", "How the skill's scripts may run (seed 000). Scripts always run in the sandbox with no network and only the skill folder (read-only) and the session scratch; this block can ask for no more than that without an administrator's policy.", {
    children: [
      extension("sandbox", "boolean", "true (the only choice here): scripts run isolated. false is not granted."),
      extension("allowed-paths", "list of strings", "Paths scripts may reach. Scripts reach only /skill and /scratch; other paths are not granted."),
      extension("network", "string", "none (what scripts get here). restricted or full network is not granted.", { values: ["none", "restricted", "full"] }),
    ],
  }),
  extension("priority", "number", "Orders candidates with the same name inside one layer (higher wins). Never lets a lower layer beat a higher one."),
  extension("tags", "list of strings", "Labels for search and filtering in the console."),
  extension("scope", "mapping", "Where the skill is offered. An omitted list means everywhere.", {
    children: [
      extension("agents", "list of strings", "Agent ids that may see the skill."),
      extension("tenants", "list of strings", "Tenants that may see the skill."),
      extension("environments", "list of strings", "Environments (dev, staging, prod...) where the skill is offered."),
    ],
  }),
];

export const VENDOR_FIELD_DOCS: readonly FieldDoc[] = [
  vendor("Claude Code", "argument-hint", "string", "Hint shown for the arguments of the skill's slash command."),
  vendor("Claude Code", "disable-model-invocation", "boolean", "When true only the user can invoke the skill; the model never activates it on its own."),
  vendor("Claude Code", "user-invocable", "boolean", "Whether the skill appears as a slash command for the user."),
  vendor("Claude Code", "when_to_use", "string", "Extra guidance on when to activate the skill; prefer putting this in description."),
  vendor("various", "version", "string", "Skill version; the spec's place for it is metadata.version."),
  vendor("Claude Code", "mode", "string", "Legacy command mode flag."),
  vendor("boxxy", "color", "string", "Display colour for the skill."),
  vendor("boxxy", "role", "string", "Role classification (Generator, Coordinator, Verifier)."),
  vendor("boxxy", "trit", "string", "GF(3) classification used by boxxy."),
  vendor("various", "author", "string", "Skill author; the spec's place for it is metadata.author."),
  vendor("Gemini CLI", "disabled", "boolean", "When true the skill is listed as disabled and never offered or activated."),
];

export const RULE_FIELDS: readonly FieldDoc[] = [...SPEC_FIELD_DOCS, ...EXTENSION_FIELD_DOCS, ...VENDOR_FIELD_DOCS];

export const SPEC_FIELDS: ReadonlySet<string> = new Set(SPEC_FIELD_DOCS.map((f) => f.name));
export const EXTENSION_FIELDS: ReadonlySet<string> = new Set(EXTENSION_FIELD_DOCS.map((f) => f.name));
export const VENDOR_FIELDS: ReadonlyMap<string, FieldDoc> = new Map(VENDOR_FIELD_DOCS.map((f) => [f.name, f]));

const ALL_NAMES = RULE_FIELDS.map((f) => f.name);
const canonical = (s: string) => s.toLowerCase().replace(/_/g, "-");

/** Classic Levenshtein distance; inputs are short field names. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** The known field a mistyped key most likely meant, or null (case, _/- swaps, then edit distance <= 2). */
export function suggestField(key: string, candidates: readonly string[] = ALL_NAMES): string | null {
  if (key.length > 64) return null;
  const k = canonical(key);
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const name of candidates) {
    const d = canonical(name) === k ? 0 : editDistance(k, canonical(name));
    if (d < bestDistance) {
      bestDistance = d;
      best = name;
    }
  }
  const limit = Math.min(2, Math.floor(k.length / 3));
  return bestDistance <= limit || bestDistance === 0 ? best : null;
}
