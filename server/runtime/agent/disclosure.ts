// What each disclosure mode sends a model about one skill: its listing (stage 1) and what activating it puts in
// the conversation (stage 2). Nothing here is written twice: the listing comes from buildListing and the
// activation from running the mode's own activation tool (mode-tools.ts) on a throw-away stack, so the
// editor's "Agent view" shows the strings runAgent sends.
import os from "node:os";
import { DEFAULT_MAX_ACTIVATION_DEPTH } from "../../domain/skill-protocol";
import { nullAuditSink } from "../audit/events";
import type { SkillEntry } from "../registry/types";
import { estimateTokens } from "../skill/tokens";
import { SkillStack } from "../tools/stack";
import type { ToolContext, ToolDefinition, ToolRunOutput } from "../tools/types";
import { ActivationChains } from "./activation-chain";
import { buildListing, listingBudgetFor } from "./listing";
import { agentSkillTool, promptReadFileTool, skillsLoadTool, type ModeHost } from "./mode-tools";
import { activeSkillsBlock } from "./prompts";
import { DISCLOSURE_MODES, type DisclosureMode } from "./types";

export interface ModeDisclosure {
  mode: DisclosureMode;
  /** Where the listing travels: the skill tool's description (tool) or the system prompt (prompt, orchestrated). */
  listingIn: "skill tool description" | "system prompt";
  /** The `<available_skills>` block with this skill alone, as the mode renders it. */
  listing: string;
  /** How the model activates it. */
  activatedBy: string;
  /** The tool result the model gets back on activation. */
  activation: string;
  /** Orchestrated mode: the `<active_skills>` block injected into every later call's instructions. */
  injected?: string;
  tokens: { listing: number; activation: number };
  /** Activation failed (the skill does not load): the message the model would get instead. */
  error?: string;
}

export interface DisclosureOptions {
  /** The listing budget in characters (default: the budget of a 200k-token model, as runAgent's default). */
  budgetChars?: number;
}

const ACTIVATED_BY: Record<DisclosureMode, string> = {
  tool: 'calling the skill tool with {"name": "<skill>"}',
  prompt: "reading the SKILL.md location with read_file",
  orchestrated: 'calling skills.load with {"names": ["<skill>"]}',
};

function text(out: ToolRunOutput): { output: string; ok: boolean } {
  return typeof out === "string" ? { output: out, ok: true } : { output: out.output, ok: out.ok !== false };
}

/** Per disclosure mode, the listing and activation of this one skill (read from disk now, as activation does). */
export async function disclosurePreview(entry: SkillEntry, opts: DisclosureOptions = {}): Promise<Record<DisclosureMode, ModeDisclosure>> {
  const budgetChars = opts.budgetChars ?? listingBudgetFor(200_000);
  const out = {} as Record<DisclosureMode, ModeDisclosure>;
  for (const mode of DISCLOSURE_MODES) {
    const listing = buildListing([{ name: entry.name, description: entry.description, location: entry.file }], { mode, budgetChars }).text;
    const host: ModeHost = {
      skills: new Map([[entry.name, entry]]),
      find: async () => ({ ranked: { hits: [], abstain: true, reason: "preview", searched: 0 }, notes: [] }),
      loaded: new Map(),
      // A fork skill's activation result is its sub-agent's answer, which only a run can give.
      runFork: async () => "(the sub-agent's answer)",
      request: "",
      maxLoadedSkills: 1,
      chains: new ActivationChains([], DEFAULT_MAX_ACTIVATION_DEPTH),
    };
    const ctx: ToolContext = { sessionId: "preview", userId: "preview", scratchDir: os.tmpdir(), stack: new SkillStack(), audit: nullAuditSink, mode };
    const [tool, input]: [ToolDefinition, unknown] =
      mode === "tool"
        ? [agentSkillTool(host, listing), { name: entry.name }]
        : mode === "prompt"
          ? [promptReadFileTool(host), { path: entry.file }]
          : [skillsLoadTool(host), { names: [entry.name] }];
    let activation = "";
    let error: string | undefined;
    try {
      const r = text(await tool.run(input, ctx));
      activation = r.output;
      if (!r.ok) error = r.output;
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
      activation = error;
    }
    const loaded = host.loaded.get(entry.name);
    const injected = mode === "orchestrated" && loaded && loaded.context !== "fork" ? activeSkillsBlock([{ name: loaded.name, baseDir: loaded.baseDir, body: loaded.body }]) : undefined;
    out[mode] = {
      mode,
      listingIn: mode === "tool" ? "skill tool description" : "system prompt",
      listing,
      activatedBy: ACTIVATED_BY[mode],
      activation,
      ...(injected ? { injected } : {}),
      tokens: { listing: estimateTokens(listing), activation: estimateTokens(activation) + (injected ? estimateTokens(injected) : 0) },
      ...(error ? { error } : {}),
    };
  }
  return out;
}
