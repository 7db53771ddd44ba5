import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldLabel, inputErrorMessage } from "./input-errors";

const messageOf = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  if (r.success) throw new Error("accepted");
  return inputErrorMessage(r.error);
};

describe("a refused input in plain words", () => {
  it("names the field and says the limit instead of zod's default text", () => {
    const s = z.object({ name: z.string().trim().min(1).max(120) });
    expect(messageOf(s, { name: "x".repeat(5000) })).toBe("Name: at most 120 characters.");
    expect(messageOf(s, { name: "   " })).toBe("Name: cannot be empty.");
    expect(messageOf(s, {})).toBe("Name: required.");
  });

  it("says what kind of value, which options and which format", () => {
    const s = z.object({ role: z.enum(["viewer", "admin"]), limit: z.number().int().min(1), email: z.email(), code: z.string().regex(/^[a-z]+$/) });
    expect(messageOf(s, { role: "boss", limit: 0, email: "x", code: "A" })).toBe(
      'Role: must be one of "viewer", "admin". Limit: at least 1. Email: not a valid email address. Code: not in the expected form.',
    );
    expect(messageOf(z.object({ limit: z.number() }), { limit: "3" })).toBe("Limit: must be a number.");
    expect(messageOf(z.object({ names: z.array(z.string().max(3)).max(1) }), { names: ["abcd"] })).toBe("Names, item 1: at most 3 characters.");
  });

  it("keeps a schema's own sentence, which already names its field", () => {
    const s = z.object({ password: z.string().min(8, "Password: at least 8 characters.") });
    expect(messageOf(s, { password: "short" })).toBe("Password: at least 8 characters.");
    // A phrase shared by several fields (lower case) gets the field's label.
    const when = z.string().refine((v) => !Number.isNaN(Date.parse(v)), "not a date");
    expect(messageOf(z.object({ from: when, to: when }), { from: "abc", to: "2026-01-01" })).toBe("From: not a date.");
  });

  it("names a discriminated union's choices and unknown fields", () => {
    const u = z.discriminatedUnion("op", [z.object({ op: z.literal("block") }), z.object({ op: z.literal("unblock") })]);
    expect(messageOf(u, { op: "burn" })).toBe('Op: must be one of "block", "unblock".');
    expect(messageOf(z.object({}).strict(), { extra: 1 })).toBe('Input: unknown field "extra".');
  });

  it("stays one line when many fields are refused", () => {
    const s = z.object(Object.fromEntries("abcdef".split("").map((k) => [k, z.string()])));
    expect(messageOf(s, {})).toBe("A: required. B: required. C: required. D: required. (and 2 more problems)");
  });

  it("labels camelCase and snake_case keys as words", () => {
    expect(fieldLabel(["fileName"])).toBe("File name");
    expect(fieldLabel(["scope", "max_items", 2])).toBe("Scope, max items, item 3");
    expect(fieldLabel([])).toBe("Input");
  });
});
