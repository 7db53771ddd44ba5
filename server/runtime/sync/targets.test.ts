// Each agent's own skills folder per scope, as its documentation gives it (sources in ./README.md).
import { expect, it } from "vitest";
import { SYNC_AGENTS } from "../../domain/vocabulary";
import { skillsFolder } from "./targets";

const places = { home: "/home/u", projectRoot: "/srv/app", env: {} };

it("maps every agent to its documented user and project folder", () => {
  const table = Object.fromEntries(SYNC_AGENTS.map((a) => [a, [skillsFolder(a, "user", places), skillsFolder(a, "project", places)]]));
  expect(table).toEqual({
    "claude-code": ["/home/u/.claude/skills", "/srv/app/.claude/skills"],
    codex: ["/home/u/.codex/skills", "/srv/app/.agents/skills"],
    gemini: ["/home/u/.gemini/skills", "/srv/app/.gemini/skills"],
    opencode: ["/home/u/.config/opencode/skills", "/srv/app/.opencode/skills"],
    copilot: ["/home/u/.copilot/skills", "/srv/app/.github/skills"],
    agents: ["/home/u/.agents/skills", "/srv/app/.agents/skills"],
  });
});

it("follows CODEX_HOME and XDG_CONFIG_HOME when set", () => {
  const env = { CODEX_HOME: "/opt/codex", XDG_CONFIG_HOME: "/home/u/cfg" };
  expect(skillsFolder("codex", "user", { ...places, env })).toBe("/opt/codex/skills");
  expect(skillsFolder("opencode", "user", { ...places, env })).toBe("/home/u/cfg/opencode/skills");
});
