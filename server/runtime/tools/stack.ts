// The skill stack: which skills are active in a session, in activation order, and the restriction they
// impose together. It lives beside the executor, not in a tool call, so a tool that throws cannot lose it.
import { parseToolPatterns, type AllowedSet, type ToolPattern } from "./patterns";
import type { ActiveSkill } from "./subject";

export class SkillStackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SkillStackError";
  }
}

/** One stack slot; opaque outside this file except for snapshot/restore. */
export interface StackEntry {
  skill: ActiveSkill;
  patterns: AllowedSet;
}

export type PushResult = "activated" | "reactivated";

function copy(s: ActiveSkill): ActiveSkill {
  return { ...s, ...(s.allowedTools ? { allowedTools: [...s.allowedTools] } : {}) };
}

export class SkillStack {
  private entries: StackEntry[] = [];

  /** Bottom first. Copies, so callers cannot edit the stack behind its back. */
  list(): ActiveSkill[] {
    return this.entries.map((e) => copy(e.skill));
  }

  get size(): number {
    return this.entries.length;
  }

  /** The most recently activated skill: relative paths resolve against it. */
  top(): ActiveSkill | undefined {
    const e = this.entries[this.entries.length - 1];
    return e ? copy(e.skill) : undefined;
  }

  find(name: string): ActiveSkill | undefined {
    const e = this.entries.find((x) => x.skill.name === name);
    return e ? copy(e.skill) : undefined;
  }

  /**
   * Activates a skill. Re-activating an active skill does not duplicate it: the entry moves to the top
   * (with the newly resolved content, if it changed). The allowed set is an intersection, so the order of
   * the stack never changes what is allowed; it only decides which skill relative paths resolve against
   * and which one must be deactivated first.
   */
  push(skill: ActiveSkill): PushResult {
    if (!skill || typeof skill.name !== "string" || skill.name === "") throw new SkillStackError("A skill needs a name to be activated");
    const existing = this.entries.findIndex((e) => e.skill.name === skill.name);
    const entry: StackEntry = {
      skill: copy(skill),
      // No allowed-tools field (or an empty one) means no restriction from this skill.
      patterns: skill.allowedTools && skill.allowedTools.length > 0 ? parseToolPatterns(skill.allowedTools) : undefined,
    };
    if (existing >= 0) this.entries.splice(existing, 1);
    this.entries.push(entry);
    return existing >= 0 ? "reactivated" : "activated";
  }

  /**
   * Deactivates the top skill (which must be `name`, when given) or, with "all", every skill.
   * Returns what was removed, most recent first.
   */
  pop(name?: string | "all"): ActiveSkill[] {
    if (name === "all") {
      const removed = this.entries.map((e) => e.skill).reverse();
      this.entries = [];
      return removed;
    }
    const top = this.entries[this.entries.length - 1];
    if (!top) throw new SkillStackError("No skill is active, so there is nothing to deactivate");
    if (name !== undefined && top.skill.name !== name) {
      if (!this.entries.some((e) => e.skill.name === name)) throw new SkillStackError(`Skill '${name}' is not active`);
      throw new SkillStackError(
        `Cannot deactivate '${name}': '${top.skill.name}' was activated after it and must be deactivated first (or deactivate "all")`,
      );
    }
    this.entries.pop();
    return [top.skill];
  }

  /** Removes every skill activated by `activatedBy` (a finished run), leaving the others in order. */
  releaseActivatedBy(activatedBy: string): ActiveSkill[] {
    const removed = this.entries.filter((e) => e.skill.activatedBy === activatedBy).map((e) => e.skill).reverse();
    this.entries = this.entries.filter((e) => e.skill.activatedBy !== activatedBy);
    return removed;
  }

  /** The restricting sets, bottom first, with the skill each belongs to. */
  restrictions(): { skill: ActiveSkill; patterns: ToolPattern[] }[] {
    return this.entries.filter((e) => e.patterns !== undefined).map((e) => ({ skill: copy(e.skill), patterns: e.patterns! }));
  }

  /** One allowed set per active skill, bottom first (undefined = no restriction from that skill). */
  allowedSets(): AllowedSet[] {
    return this.entries.map((e) => e.patterns);
  }

  /** For the executor: the state to put back if a tool throws halfway. */
  snapshot(): readonly StackEntry[] {
    return [...this.entries];
  }

  restore(snapshot: readonly StackEntry[]): void {
    this.entries = [...snapshot];
  }
}
