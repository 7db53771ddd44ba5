import { describe, expect, it } from "vitest";
import { isCallAllowed } from "./patterns";
import { SkillStack, SkillStackError } from "./stack";
import type { ActiveSkill } from "./types";

const skill = (name: string, allowedTools?: string[], activatedBy = "run-1"): ActiveSkill => ({
  name,
  layer: "project",
  digest: `sha-${name}`,
  baseDir: `/skills/${name}`,
  ...(allowedTools ? { allowedTools } : {}),
  activatedBy,
});

describe("SkillStack", () => {
  it("pushes in order and only the top can be deactivated", () => {
    const s = new SkillStack();
    s.push(skill("a"));
    s.push(skill("b"));
    expect(s.top()?.name).toBe("b");
    expect(() => s.pop("a")).toThrow(/'b' was activated after it/);
    expect(() => s.pop("zzz")).toThrow(SkillStackError);
    expect(s.pop("b").map((x) => x.name)).toEqual(["b"]);
    expect(s.pop().map((x) => x.name)).toEqual(["a"]);
    expect(() => s.pop()).toThrow(/No skill is active/);
  });

  it('"all" clears the stack, most recent first', () => {
    const s = new SkillStack();
    s.push(skill("a"));
    s.push(skill("b"));
    expect(s.pop("all").map((x) => x.name)).toEqual(["b", "a"]);
    expect(s.size).toBe(0);
  });

  it("re-activation does not duplicate: the skill moves to the top with its new content", () => {
    const s = new SkillStack();
    s.push(skill("a", ["Read"]));
    s.push(skill("b"));
    expect(s.push({ ...skill("a", ["Read"]), digest: "sha-a2" })).toBe("reactivated");
    expect(s.list().map((x) => x.name)).toEqual(["b", "a"]);
    expect(s.top()?.digest).toBe("sha-a2");
  });

  it("a second skill never widens what the first allowed; deactivating it restores the first's set", () => {
    const s = new SkillStack();
    s.push(skill("narrow", ["Read"]));
    const bash = { tool: "bash", commandLine: "ls" };
    const read = { tool: "read_file", path: "x" };
    expect(isCallAllowed(bash, s.allowedSets())).toBe(false);
    s.push(skill("wide", ["Read", "Bash"]));
    expect(isCallAllowed(bash, s.allowedSets())).toBe(false);
    s.push(skill("free")); // no allowed-tools: adds no restriction, lifts none
    expect(isCallAllowed(bash, s.allowedSets())).toBe(false);
    expect(isCallAllowed(read, s.allowedSets())).toBe(true);
    s.pop("free");
    s.pop("wide");
    expect(s.restrictions().map((r) => r.skill.name)).toEqual(["narrow"]);
    s.pop("all");
    expect(isCallAllowed(bash, s.allowedSets())).toBe(true);
  });

  it("an empty allowed-tools list adds no restriction (same as absent)", () => {
    const s = new SkillStack();
    s.push(skill("empty", []));
    expect(s.allowedSets()).toEqual([undefined]);
  });

  it("releaseActivatedBy removes what one run activated and keeps the rest in order", () => {
    const s = new SkillStack();
    s.push(skill("user-pinned", undefined, "user"));
    s.push(skill("a", undefined, "run-1"));
    s.push(skill("b", undefined, "run-2"));
    s.push(skill("c", undefined, "run-1"));
    expect(s.releaseActivatedBy("run-1").map((x) => x.name)).toEqual(["c", "a"]);
    expect(s.list().map((x) => x.name)).toEqual(["user-pinned", "b"]);
  });

  it("list() and top() return copies", () => {
    const s = new SkillStack();
    s.push(skill("a", ["Read"]));
    s.list()[0]!.allowedTools!.push("Bash");
    const t = s.top()!;
    t.name = "hacked";
    expect(s.top()).toMatchObject({ name: "a", allowedTools: ["Read"] });
  });
});
