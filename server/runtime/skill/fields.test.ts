import { describe, expect, it } from "vitest";
import { EXTENSION_FIELDS, RULE_FIELDS, SPEC_FIELDS, VENDOR_FIELDS, estimateTokens, suggestField } from "./index";

describe("RULE_FIELDS", () => {
  it("documents each field once, with a type and a description", () => {
    const names = RULE_FIELDS.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    for (const f of RULE_FIELDS) expect([typeof f.type, f.type.length > 0, f.description.trim().length > 10], f.name).toEqual(["string", true, true]);
    expect([...SPEC_FIELDS].sort()).toEqual(["allowed-tools", "compatibility", "description", "license", "metadata", "name"]);
    expect([...EXTENSION_FIELDS].sort()).toEqual(["agent", "context", "execution", "hooks", "model", "priority", "scope", "tags"]);
    expect(VENDOR_FIELDS.has("argument-hint") && VENDOR_FIELDS.has("disable-model-invocation")).toBe(true);
  });
});

describe("suggestField", () => {
  it("suggests the field a typo meant, and nothing for unrelated keys", () => {
    expect(suggestField("Name")).toBe("name");
    expect(suggestField("allowed_tools")).toBe("allowed-tools");
    expect(suggestField("descripton")).toBe("description");
    expect(suggestField("licence")).toBe("license");
    expect(suggestField("zeta")).toBeNull();
    expect(suggestField("x")).toBeNull();
  });
});

describe("estimateTokens", () => {
  it("counts o200k tokens (an estimate for every model)", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("hello world")).toBe(2);
    const long = "Extract text and tables from PDF files. ".repeat(50);
    expect(estimateTokens(long)).toBeGreaterThan(300);
    expect(estimateTokens(long)).toBeLessThan(long.length / 2);
  });
});
