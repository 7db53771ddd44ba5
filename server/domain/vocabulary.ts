// The product's words, defined once: roles, layers, skill states, disclosure modes and the format's limits.
// Runtime, services, routers, components and the CLI import them from here; nothing retypes them.
// Pure data: no import of node, next, react or the database, so every part (and the browser) can use it.

export const ROLES = ["viewer", "author", "admin"] as const;
export type Role = (typeof ROLES)[number];
/** Roles are ordered: an admin may do everything an author may, an author everything a viewer may. */
export const hasRole = (role: Role, min: Role): boolean => ROLES.indexOf(role) >= ROLES.indexOf(min);

/**
 * What each role may do, in the words the Users page shows: each right with the least role that has it (the server
 * checks these on every request: the procedures by role in server/api/trpc.ts, skill writes in assertWrite).
 */
export const ROLE_RIGHTS: readonly { right: string; minRole: Role }[] = [
  { right: "read the skills, the layers, the doctor's report and the playground's sessions", minRole: "viewer" },
  { right: "make access tokens of their own, for sync and for telemetry", minRole: "viewer" },
  { right: "create, edit, import and delete project skills and their own personal skills", minRole: "author" },
  { right: "chat in the playground and run trigger tests", minRole: "author" },
  { right: "read their own events in the audit", minRole: "author" },
  { right: "edit enterprise skills", minRole: "admin" },
  { right: "set policies, decide approvals and add git sources", minRole: "admin" },
  { right: "manage users and their roles, and everyone's tokens", minRole: "admin" },
  { right: "read and verify the whole audit", minRole: "admin" },
];

/** The rights a role adds to the role below it (a viewer's are all its own). */
export const rightsAddedBy = (role: Role): string[] => ROLE_RIGHTS.filter((r) => r.minRole === role).map((r) => r.right);

/** Highest precedence first (enterprise > personal > project > plugin, DESIGN.md). */
export const LAYERS = ["enterprise", "personal", "project", "plugin"] as const;
export type LayerName = (typeof LAYERS)[number];
export const LAYER_LABEL: Record<LayerName, string> = { enterprise: "Enterprise", personal: "Personal", project: "Project", plugin: "Plugin" };
export const isLayerName = (value: string): value is LayerName => (LAYERS as readonly string[]).includes(value);

/**
 * What a skill definition is after resolution, as the screen says it. Exactly one definition of a name is
 * "active" in a given context; the others say why not.
 */
export const SKILL_STATES = ["active", "shadowed", "blocked", "pending-approval", "disabled", "out-of-scope", "invalid"] as const;
export type SkillState = (typeof SKILL_STATES)[number];
export const SKILL_STATE_LABEL: Record<SkillState, string> = {
  active: "active",
  shadowed: "shadowed",
  blocked: "blocked",
  "pending-approval": "pending approval",
  disabled: "disabled",
  "out-of-scope": "out of scope",
  invalid: "invalid",
};

/** How skills reach the model: the skill tool (Claude Code), the system prompt (Codex), or skills.* calls (seed 004). */
export const DISCLOSURE_MODES = ["tool", "prompt", "orchestrated"] as const;
export type DisclosureMode = (typeof DISCLOSURE_MODES)[number];

/** The agents whose own skill folders `omniforge sync` writes (and whose telemetry the console reads). */
export const SYNC_AGENTS = ["claude-code", "codex", "gemini", "opencode", "copilot", "agents"] as const;
export type SyncAgent = (typeof SYNC_AGENTS)[number];

/** Each agent as people name it, on the command line and on the audit page. */
export const AGENT_LABELS: Record<SyncAgent, string> = {
  "claude-code": "Claude Code",
  codex: "Codex",
  gemini: "Gemini CLI",
  opencode: "OpenCode",
  copilot: "GitHub Copilot",
  agents: "the shared .agents folder",
};

/** The agentskills.io format's limits (spec 002). */
export const FORMAT_LIMITS = {
  nameChars: 64,
  descriptionChars: 1024,
  compatibilityChars: 500,
  /** A SKILL.md body longer than this should move detail into references/. */
  bodyLines: 500,
} as const;

/** The largest settings or list file a command reads where a person points it (config.yaml, a policy, queries, triggers). */
export const SETTINGS_FILE_MAX_BYTES = 1024 * 1024;

/**
 * How far the console follows a layer folder by OS notifications. A layer with more entries than this (a home
 * folder linked in by mistake, a checkout with build output) is rescanned on a timer instead, with a warning.
 */
export const WATCH_LIMITS = {
  /** Files and folders counted per layer root before it is judged too big to watch. */
  maxPaths: 20_000,
  /** Rescan period of a layer that is too big to watch. */
  pollMs: 5_000,
} as const;

/**
 * A file changed this recently is looked at again next time instead of being trusted by its size and times: those
 * move at the file clock's coarse tick, so a write in the same tick as a look leaves them equal (git's "racy" entries).
 */
export const FILE_CLOCK_SETTLE_MS = 2_000;

/** Vendor words spec 003 proposes to keep out of skill names; offered as a policy preset and read by the doctor. */
export const VENDOR_WORD_PATTERNS: readonly string[] = ["claude", "anthropic", "gemini", "openai"];
