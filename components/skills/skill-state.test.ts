import { describe, expect, it } from "vitest";
import { LAYER_LABEL, SKILL_STATES } from "~/server/domain/vocabulary";
import { STATE_STYLE, stateClass, stateLabel } from "./skill-state";

describe("skill states on screen", () => {
  it("says the same words in the skill list and the layers matrix", () => {
    expect(SKILL_STATES.map(stateLabel)).toEqual(["active", "shadowed", "blocked", "pending approval", "disabled", "out of scope", "invalid"]);
    expect(LAYER_LABEL).toEqual({ enterprise: "Enterprise", personal: "Personal", project: "Project", plugin: "Plugin" });
  });

  it("gives every state its own symbol", () => {
    expect(new Set(SKILL_STATES.map((s) => STATE_STYLE[s].symbol)).size).toBe(SKILL_STATES.length);
  });

  it("shows a status it does not know as written, unstyled", () => {
    expect(stateLabel("archived")).toBe("archived");
    expect(stateClass("archived")).toBe("");
  });
});
