// The tools each disclosure mode gives the model. Activation is the mode's: the skill tool (tool mode),
// reading a listed SKILL.md with read_file (prompt mode), skills.load/unload (orchestrated mode). All of
// them go through the executor, so restrictions and the audit apply; a `context: fork` skill runs in a
// sub-agent instead of being activated, and only the sub-agent's answer comes back.
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { SkillEntry } from "../registry/types";
import { activateSkill, recordDeactivated } from "../tools/lifecycle";
import type { ActiveSkill, ToolContext, ToolDefinition, ToolRunOutput } from "../tools/types";
import { ActivationChainError, type ActivationChains } from "./activation-chain";
import { notFoundMessage } from "../tools/builtin/skill";
import { bashTool, builtinTools, createSkillTool, listFilesTool, orchestratedTools, readFileTool, runScriptTool, searchFilesTool, writeFileTool } from "../tools/builtin/index";
import type { SearchResult } from "../search/engine";
import { skillToolDescription } from "./prompts";
import { loadSkill, type LoadedSkill } from "./skill-source";
import type { DisclosureMode } from "./types";
import { forkAgentOf } from "./fork-agent";
import { count, plural } from "../../domain/plural";

/** What the mode tools need from the run. */
export interface ModeHost {
  /** Effective skills by name (every one, also those left out of the listing). */
  skills: Map<string, SkillEntry>;
  /** The router's ranking over exactly these skills (what the listing uses: meaning fused when configured), for skill_search. */
  find: (request: string, limit: number) => Promise<{ ranked: SearchResult; notes: string[] }>;
  /** Bodies of skills activated in this run, by name (for <active_skills> and the offline provider). */
  loaded: Map<string, LoadedSkill>;
  /** Runs a `context: fork` skill in a sub-agent continuing activation `chain`; resolves to its final answer. */
  runFork(skill: LoadedSkill, task: string, chain: string[]): Promise<string>;
  /** The request of the run: a fork sub-agent's task when the model gives none. */
  request: string;
  maxLoadedSkills: number;
  /** Activation chains of this run (cycles and the depth limit). */
  chains: ActivationChains;
  /** skills.load activations belong to the caller's session and outlive the run (until skills.unload). */
  keepLoaded?: boolean;
}

/** A skill by name, or by location: its SKILL.md path or its folder (as given or after symlinks). */
export function entryFor(host: ModeHost, ref: string): SkillEntry | undefined {
  const r = ref.trim();
  const named = host.skills.get(r);
  if (named || !path.isAbsolute(r) || r.includes("\0")) return named;
  const want = new Set([path.resolve(r), realOrSelf(r)]);
  for (const e of host.skills.values()) {
    for (const p of [e.file, e.dir]) if (want.has(path.resolve(p)) || want.has(realOrSelf(p))) return e;
  }
  return undefined;
}

/** The chain an activation would continue, or the refusal (cycle, depth) as the tool's result. */
function chainOrRefusal(host: ModeHost, ctx: ToolContext, name: string, fork: boolean): { chain: string[] } | { refusal: ToolRunOutput } {
  try {
    return { chain: host.chains.check(name, ctx.stack.top()?.name, new Set(ctx.stack.list().map((s) => s.name)), { fork }) };
  } catch (e) {
    if (e instanceof ActivationChainError) return { refusal: { ok: false, output: e.message, error: e.code, data: { chain: e.chain } } };
    throw e;
  }
}

function activeOf(s: LoadedSkill): Omit<ActiveSkill, "activatedBy"> {
  return { name: s.name, layer: s.layer, digest: s.digest, baseDir: s.baseDir, ...(s.allowedTools ? { allowedTools: s.allowedTools } : {}), ...(s.source ? { source: s.source } : {}) };
}

function load(host: ModeHost, name: string): LoadedSkill | null {
  const entry = entryFor(host, name);
  if (!entry) return null;
  const skill = loadSkill(entry);
  host.loaded.set(skill.name, skill);
  return skill;
}

function restrictionNote(s: LoadedSkill): string {
  return s.allowedTools?.length
    ? `While it is active only these tools may be used: ${s.allowedTools.join(", ")}.`
    : "It does not restrict tools.";
}

async function forkAnswer(host: ModeHost, s: LoadedSkill, task: string | undefined, chain: string[]): Promise<string> {
  host.chains.record(s.name, chain);
  const answer = await host.runFork(s, task?.trim() || host.request, chain);
  const note = forkAgentOf(s).note;
  return `Skill '${s.name}' runs in its own context (context: fork). A sub-agent followed it without this conversation; its answer:\n\n${answer}${note ? `\n\n${note}` : ""}`;
}

// ---- tool mode ----------------------------------------------------------------------------------------

// The seeds' words ({skill_name, args}) and ours ({name, action, task}) are both accepted.
const skillInput = z
  .object({
    name: z.string().min(1).optional().describe('Skill name; for deactivate, the most recently activated skill or "all"'),
    skill_name: z.string().min(1).optional().describe("Same as name"),
    action: z.enum(["activate", "deactivate"]).optional().describe("Default: activate"),
    task: z.string().optional().describe("What the skill should do: a skill running in its own context gets it as its task (default: the user's request), any other with its instructions"),
    args: z.string().optional().describe("Same as task"),
  })
  .refine((i) => !!(i.name ?? i.skill_name), { message: "give the skill's name (name or skill_name)" });

export function agentSkillTool(host: ModeHost, listing: string): ToolDefinition<z.infer<typeof skillInput>> {
  const base = createSkillTool({
    description: skillToolDescription(listing),
    resolve: (name) => {
      const s = load(host, name);
      return s ? { ...activeOf(s), body: s.body } : null;
    },
    names: () => host.skills.keys(),
  });
  return {
    ...base,
    inputSchema: skillInput,
    async run(i, ctx) {
      const name = (i.name ?? i.skill_name ?? "").trim();
      if ((i.action ?? "activate") === "activate") {
        const entry = host.skills.get(name);
        if (entry) {
          const gate = chainOrRefusal(host, ctx, entry.name, entry.context === "fork");
          if ("refusal" in gate) return gate.refusal;
          if (entry.context === "fork") {
            const s = load(host, entry.name)!;
            if (s.context === "fork") return { output: await forkAnswer(host, s, i.task ?? i.args, gate.chain), data: { name: s.name, fork: true, digest: s.digest } };
          }
          host.chains.record(entry.name, gate.chain);
        }
      }
      // A skill that is not a fork gets the invocation's arguments with its instructions (seed 000).
      const args = i.args ?? i.task;
      return base.run({ name, ...(i.action ? { action: i.action } : {}), ...(args?.trim() ? { args } : {}) }, ctx);
    },
  };
}

// ---- prompt mode --------------------------------------------------------------------------------------

function realOrSelf(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** read_file that activates a skill when the file read is a listed SKILL.md (spec 003: "read SKILL.md first"). */
export function promptReadFileTool(host: ModeHost): ToolDefinition {
  const byLocation = new Map<string, SkillEntry>();
  for (const e of host.skills.values()) {
    byLocation.set(path.resolve(e.file), e);
    byLocation.set(realOrSelf(e.file), e);
  }
  const skillMdOf = (p: unknown): SkillEntry | undefined =>
    typeof p === "string" && path.isAbsolute(p) && !p.includes("\0") ? byLocation.get(path.resolve(p)) ?? byLocation.get(realOrSelf(p)) : undefined;
  return {
    ...readFileTool,
    description:
      readFileTool.description + " Reading a listed SKILL.md (by the location given in <available_skills>) activates that skill.",
    subject(i: { path: string }, ctx: ToolContext) {
      const entry = skillMdOf(i.path);
      return entry ? { path: i.path } : readFileTool.subject!(i, ctx);
    },
    async run(i: { path: string; offset?: number; limit?: number }, ctx: ToolContext) {
      const entry = skillMdOf(i.path);
      if (!entry) return readFileTool.run(i, ctx);
      const gate = chainOrRefusal(host, ctx, entry.name, entry.context === "fork");
      if ("refusal" in gate) return gate.refusal;
      const s = load(host, entry.name)!;
      if (s.context === "fork") return { output: await forkAnswer(host, s, undefined, gate.chain), data: { name: s.name, fork: true, digest: s.digest } };
      host.chains.record(s.name, gate.chain);
      const how = activateSkill(ctx, activeOf(s));
      const text = fs.readFileSync(s.file, "utf8");
      return {
        output:
          `[Skill '${s.name}' ${how === "reactivated" ? "re-activated" : "activated"}. Base path: ${s.baseDir}. ${restrictionNote(s)} ` +
          `Relative paths in it resolve against the base path.]\n\n${text}`,
        data: { name: s.name, layer: s.layer, digest: s.digest, baseDir: s.baseDir, allowedTools: s.allowedTools ?? null, status: how },
      };
    },
  } as ToolDefinition;
}

// ---- orchestrated mode --------------------------------------------------------------------------------

const loadInput = z.object({
  names: z.array(z.string().min(1)).min(1).max(32).describe("Skills to load, by name (or by location: the SKILL.md path or the skill's folder)"),
  mode: z.enum(["replace", "add"]).optional().describe('"replace" (default) sets the loaded skills to names; "add" keeps the others'),
  task: z.string().optional().describe("What the skills should do: the task of a skill running in its own context, the arguments of any other (in the receipt)"),
});

const unloadInput = z.object({
  names: z.array(z.string().min(1)).optional(),
  all: z.boolean().optional(),
});

function receipt(ctx: ToolContext, host: ModeHost) {
  return {
    active_skills: ctx.stack.list().map((s) => {
      const l = host.loaded.get(s.name);
      return {
        name: s.name,
        location: l?.file ?? path.join(s.baseDir, "SKILL.md"),
        root_dir: s.baseDir,
        digest: `sha256:${s.digest}`,
        layer: s.layer,
        // Every frontmatter field as parsed (license, compatibility, metadata, allowed-tools...), spec 004's SkillRecord.
        properties: l?.properties ?? {
          name: s.name,
          description: host.skills.get(s.name)?.description ?? "",
          ...(s.allowedTools ? { "allowed-tools": s.allowedTools.join(" ") } : {}),
        },
      };
    }),
  };
}

/**
 * Removes named skills wherever they sit in the stack (spec 004 unload is by name, not last-in-first-out),
 * recording skill_deactivated for each. The stack keeps the others in order.
 */
export function removeFromStack(ctx: ToolContext, names: string[], reason: string): ActiveSkill[] {
  const drop = new Set(names);
  const snap = ctx.stack.snapshot();
  const removed = snap.filter((e) => drop.has(e.skill.name)).map((e) => ({ ...e.skill }));
  if (!removed.length) return [];
  ctx.stack.restore(snap.filter((e) => !drop.has(e.skill.name)));
  recordDeactivated(ctx, removed.reverse(), reason);
  return removed;
}

export function skillsLoadTool(host: ModeHost): ToolDefinition<z.infer<typeof loadInput>> {
  return {
    name: "skills.load",
    description: `Load skills by name; their instructions appear in <active_skills> from the next call on. mode "replace" (default) or "add". At most ${host.maxLoadedSkills} skills can be loaded at once. Returns a receipt with each skill's root_dir and digest.`,
    inputSchema: loadInput,
    async run(i, ctx) {
      const refs = [...new Set(i.names.map((n) => n.trim()))];
      const unknown = refs.filter((n) => !entryFor(host, n));
      if (unknown.length) return { ok: false, output: unknown.map((n) => notFoundMessage(n, host.skills.keys())).join(" "), error: "unknown_skill" };
      const entries = [...new Map(refs.map((r) => entryFor(host, r)!).map((e) => [e.name, e])).values()];
      const chains = new Map<string, string[]>();
      for (const e of entries) {
        const gate = chainOrRefusal(host, ctx, e.name, e.context === "fork");
        if ("refusal" in gate) return gate.refusal;
        chains.set(e.name, gate.chain);
      }
      const loaded = entries.map((e) => load(host, e.name)!);
      const forks = loaded.filter((s) => s.context === "fork");
      const inline = loaded.filter((s) => s.context !== "fork");
      const mode = i.mode ?? "replace";
      const current = ctx.stack.list().map((s) => s.name);
      const kept = mode === "replace" ? [] : current.filter((n) => !inline.some((s) => s.name === n));
      const total = kept.length + inline.length;
      if (total > host.maxLoadedSkills) {
        const error =
          `Too many skills: ${total} would be loaded at once, the limit is ${host.maxLoadedSkills}. Nothing was loaded. ` +
          `Load fewer skills: unload one with skills.unload, or use mode "replace".`;
        return { ok: false, output: error, error: "too_many_skills" };
      }
      if (mode === "replace") removeFromStack(ctx, current.filter((n) => !inline.some((s) => s.name === n)), "replaced");
      const task = i.task?.trim() || undefined;
      for (const s of inline) {
        host.chains.record(s.name, chains.get(s.name)!);
        activateSkill(ctx, { ...activeOf(s), ...(host.keepLoaded ? { activatedBy: SESSION_OWNER } : {}) }, task);
      }
      const answers: string[] = [];
      for (const s of forks) answers.push(await forkAnswer(host, s, i.task, chains.get(s.name)!));
      // The invocation's arguments travel with it (seed 000): the loaded skills' receipt carries them.
      const r = { ...receipt(ctx, host), ...(task && inline.length ? { arguments: task } : {}) };
      return { output: JSON.stringify(r, null, 2) + (answers.length ? "\n\n" + answers.join("\n\n") : ""), data: r };
    },
  };
}

export function skillsUnloadTool(host: ModeHost): ToolDefinition<z.infer<typeof unloadInput>> {
  return {
    name: "skills.unload",
    description: 'Unload skills: {"names": [...]} or {"all": true}. Returns the updated receipt.',
    inputSchema: unloadInput,
    run(i, ctx) {
      const current = ctx.stack.list().map((s) => s.name);
      const names = i.all ? current : (i.names ?? []).map((n) => n.trim());
      if (!i.all && !names.length) return { ok: false, output: 'Give "names" or "all": true', error: "bad_input" };
      const notLoaded = names.filter((n) => !current.includes(n));
      removeFromStack(ctx, names, i.all ? "all" : "unloaded");
      const r = receipt(ctx, host);
      return {
        output: (notLoaded.length ? `Not loaded: ${notLoaded.join(", ")}.\n` : "") + JSON.stringify(r, null, 2),
        data: r,
      };
    },
  };
}

// ---- search, every mode ------------------------------------------------------------------------------

const searchInput = z.object({
  query: z.string().min(1).max(2000).describe("What the skill should do, in your own words (e.g. 'fill a PDF form')"),
  limit: z.number().int().min(1).max(20).optional().describe("Most results (default 5)"),
});

/**
 * Finds skills by what they do, over the same skills the listing draws from: the run's effective skills after
 * resolution (layers, policy, scope, approval), so a blocked or out-of-scope skill is never found.
 */
export function skillSearchTool(host: ModeHost, mode: DisclosureMode): ToolDefinition<z.infer<typeof searchInput>> {
  const how = mode === "tool" ? "activate one with the skill tool" : mode === "prompt" ? "activate one by reading its location with read_file" : "load one with skills.load";
  return {
    name: mode === "orchestrated" ? "skills.search" : "skill_search",
    description: `Search every available skill by what it does, including skills not in <available_skills>. Returns the best matches with name, description and SKILL.md location; then ${how}.`,
    inputSchema: searchInput,
    async run(i) {
      const { ranked: r, notes } = await host.find(i.query, i.limit ?? 5);
      const results = r.hits.map((h) => {
        const e = host.skills.get(h.name);
        return { name: h.name, description: h.description, location: e?.file ?? "" };
      });
      let note = !results.length
        ? `No available skill matches "${i.query}".`
        : r.abstain
          ? `No skill clearly serves this (${r.reason}); the closest ${plural(results.length, "is", "are")} below and may not fit.`
          : `${count(results.length, "best match", "best matches")} of ${count(r.searched, "skill")}, best first.`;
      // A failing embeddings endpoint first seen here is said here, once, like anywhere else the process routes.
      for (const n of notes) note += ` (Search: ${n}.)`;
      const data = { query: i.query, abstain: r.abstain, note, results };
      return { output: JSON.stringify(data, null, 2), data };
    },
  };
}

/** The tool set of a mode. */
export function toolsForMode(mode: DisclosureMode, host: ModeHost, listingText: string): ToolDefinition[] {
  switch (mode) {
    case "tool":
      return [agentSkillTool(host, listingText), skillSearchTool(host, mode), ...builtinTools()];
    case "prompt":
      return [promptReadFileTool(host), skillSearchTool(host, mode), listFilesTool, searchFilesTool, writeFileTool, runScriptTool, bashTool];
    case "orchestrated":
      return [skillsLoadTool(host), skillsUnloadTool(host), skillSearchTool(host, mode), ...orchestratedTools(), writeFileTool, bashTool];
  }
}

/** The tools of a run with skills off: files and the shell, nothing that lists, finds or activates a skill. */
export function toolsWithoutSkills(): ToolDefinition[] {
  return [readFileTool, listFilesTool, searchFilesTool, writeFileTool, bashTool];
}

/** Who owns activations that outlive a run: the session (endRun releases only what a run tagged with its id). */
export const SESSION_OWNER = "session";
