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

export const SPEC_FIELD_DOCS: readonly FieldDoc[] = [
  {
    name: "name",
    kind: "spec",
    type: "string",
    required: true,
    description:
      "1-64 characters: lowercase letters, digits and single hyphens (no leading, trailing or double hyphen). " +
      "Must equal the skill folder's name (compared after NFKC normalisation).",
  },
  {
    name: "description",
    kind: "spec",
    type: "string",
    required: true,
    description:
      "1-1024 characters. What the skill does AND when to use it, with the keywords an agent will match on.",
  },
  {
    name: "license",
    kind: "spec",
    type: "string",
    description: 'License name ("MIT", "Apache-2.0") or a reference to a bundled file ("Proprietary. LICENSE.txt has full terms").',
  },
  {
    name: "compatibility",
    kind: "spec",
    type: "string",
    description: 'At most 500 characters. Environment requirements, e.g. "Requires Node.js 18+ and Docker".',
  },
  {
    name: "metadata",
    kind: "spec",
    type: "mapping of string to string",
    description: "Free key/value pairs (version, author, updated...). Values must be plain strings, not lists or mappings.",
  },
  {
    name: "allowed-tools",
    kind: "spec",
    type: "string",
    description:
      'Space-separated tool patterns the skill may use, e.g. "Bash(git:*) Read Write" (experimental in the spec). ' +
      "The omniforge rules also accept a YAML list and commas.",
  },
];

export const EXTENSION_FIELD_DOCS: readonly FieldDoc[] = [
  {
    name: "model",
    kind: "extension",
    type: "string",
    description: "Model to use while the skill is active (provider-specific id). Omit to keep the session's model.",
  },
  {
    name: "context",
    kind: "extension",
    type: "string",
    values: ["inherit", "fork"],
    description:
      "inherit (default): the skill runs in the current conversation. fork: a sub-agent runs the skill with its body " +
      "as instructions and none of the parent conversation.",
  },
  {
    name: "agent",
    kind: "extension",
    type: "string",
    description:
      "Which agent type runs a forked skill (used with context: fork): general-purpose (the default, every tool), Explore or Plan (read-only: " +
      "no tool that writes files or runs commands). Another name runs as general-purpose, and the answer says so.",
  },
  {
    name: "hooks",
    kind: "extension",
    type: "mapping",
    description: "Scripts inside the skill folder run around activation.",
    children: [
      { name: "pre", kind: "extension", type: "string", description: "Script path (relative to the skill folder) run before the skill starts." },
      { name: "post", kind: "extension", type: "string", description: "Script path (relative to the skill folder) run after the skill ends." },
    ],
  },
  {
    name: "priority",
    kind: "extension",
    type: "number",
    description:
      "Orders candidates with the same name inside one layer (higher wins). Never lets a lower layer beat a higher one.",
  },
  {
    name: "tags",
    kind: "extension",
    type: "list of strings",
    description: "Labels for search and filtering in the console.",
  },
  {
    name: "scope",
    kind: "extension",
    type: "mapping",
    description: "Where the skill is offered. An omitted list means everywhere.",
    children: [
      { name: "agents", kind: "extension", type: "list of strings", description: "Agent ids that may see the skill." },
      { name: "tenants", kind: "extension", type: "list of strings", description: "Tenants that may see the skill." },
      { name: "environments", kind: "extension", type: "list of strings", description: "Environments (dev, staging, prod...) where the skill is offered." },
    ],
  },
];

export const VENDOR_FIELD_DOCS: readonly FieldDoc[] = [
  { name: "argument-hint", kind: "vendor", type: "string", origin: "Claude Code", description: "Hint shown for the arguments of the skill's slash command." },
  { name: "disable-model-invocation", kind: "vendor", type: "boolean", origin: "Claude Code", description: "When true only the user can invoke the skill; the model never activates it on its own." },
  { name: "user-invocable", kind: "vendor", type: "boolean", origin: "Claude Code", description: "Whether the skill appears as a slash command for the user." },
  { name: "when_to_use", kind: "vendor", type: "string", origin: "Claude Code", description: "Extra guidance on when to activate the skill; prefer putting this in description." },
  { name: "version", kind: "vendor", type: "string", origin: "various", description: "Skill version; the spec's place for it is metadata.version." },
  { name: "mode", kind: "vendor", type: "string", origin: "Claude Code", description: "Legacy command mode flag." },
  { name: "color", kind: "vendor", type: "string", origin: "boxxy", description: "Display colour for the skill." },
  { name: "role", kind: "vendor", type: "string", origin: "boxxy", description: "Role classification (Generator, Coordinator, Verifier)." },
  { name: "trit", kind: "vendor", type: "string", origin: "boxxy", description: "GF(3) classification used by boxxy." },
  { name: "author", kind: "vendor", type: "string", origin: "various", description: "Skill author; the spec's place for it is metadata.author." },
  { name: "disabled", kind: "vendor", type: "boolean", origin: "Gemini CLI", description: "When true the skill is listed as disabled and never offered or activated." },
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
