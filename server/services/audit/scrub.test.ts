import { describe, expect, it } from "vitest";
import { isSecretKey, scrubDetails } from "./scrub";

describe("scrubDetails", () => {
  it("drops secret-named keys at any depth and keeps usage counts", () => {
    const out = scrubDetails({
      email: "a@example.com",
      password: "hunter2",
      headers: { Authorization: "Bearer abc", "x-api-key": "k", accept: "json" },
      provider: { apiKey: "sk-1", OPENAI_API_KEY: "sk-2", model: "gpt" },
      list: [{ token: "t", name: "n" }],
      usage: { maxTokens: 100, inputTokens: 12 },
      clientSecret: "s",
    });
    expect(out).toEqual({
      email: "a@example.com",
      headers: { accept: "json" },
      provider: { model: "gpt" },
      list: [{ name: "n" }],
      usage: { maxTokens: 100, inputTokens: 12 },
    });
    expect(JSON.stringify(out)).not.toMatch(/hunter2|sk-1|sk-2|Bearer/);
  });

  it("redacts bearer values under innocent keys and survives cycles, BigInt and dates", () => {
    const cyclic: Record<string, unknown> = { n: 1n, when: new Date(0), header: "Bearer xyz" };
    cyclic.self = cyclic;
    const out = scrubDetails(cyclic);
    expect(out).toEqual({ n: "1", when: "1970-01-01T00:00:00.000Z", header: "[redacted]", self: "[circular]" });
  });

  it("names secret keys by suffix, not by substring", () => {
    expect(isSecretKey("csrfToken")).toBe(true);
    expect(isSecretKey("db_password")).toBe(true);
    expect(isSecretKey("tokens")).toBe(false);
    expect(isSecretKey("secretName")).toBe(false);
  });
});
