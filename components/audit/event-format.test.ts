// The audit page's source names: a console row is the playground's only when it is a playground turn's event.
import { describe, expect, it } from "vitest";
import { rowSource, sourceLabel, sourceName } from "./event-format";

describe("audit source names", () => {
  it("names a console row by what it is, and an agent's row by the agent", () => {
    expect(sourceName(rowSource({ sourceAgent: null, type: "login" }))).toBe("Console");
    expect(sourceName(rowSource({ sourceAgent: null, type: "policy_changed" }))).toBe("Console");
    expect(sourceName(rowSource({ sourceAgent: null, type: "tool_call" }))).toBe("Console playground");
    expect(sourceName(rowSource({ sourceAgent: null, type: "skill_activated" }))).toBe("Console playground");
    expect(sourceName(rowSource({ sourceAgent: "claude-code", type: "skill_activated" }))).toBe("Claude Code");
    expect(sourceLabel({ source: "console", hosts: 0 })).toBe("Console");
    expect(sourceLabel({ source: "playground", hosts: 0 })).toBe("Console playground");
    expect(sourceLabel({ source: "codex", hosts: 2 })).toBe("Codex on 2 machines");
    // `omniforge agent run` writing into the console's audit is the command line, not the playground.
    expect(sourceName(rowSource({ sourceAgent: "omniforge-cli", type: "skill_activated" }))).toBe("omniforge agent run (command line)");
  });
});
