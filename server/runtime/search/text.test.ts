// Words of other scripts: a skill described in Japanese, Russian or Thai is found by a request in that language,
// as an English one is by English words; Latin text is read exactly as before.
import { describe, expect, it } from "vitest";
import { SkillSearch } from "./engine";
import { terms, words } from "./text";

const catalog = SkillSearch.fromText([
  { name: "japanese-translate", description: "日本語の文書を英語に翻訳します。契約書やメールに使います。" },
  { name: "ru-forms", description: "Заполняет налоговые формы и проверяет поля. Используйте, когда пользователь просит заполнить декларацию." },
  { name: "thai-summary", description: "สรุปเอกสารภาษาไทยให้สั้นลง" },
  { name: "pdf-forms", description: "Fill PDF forms and list their fields. Use when working with PDF forms." },
  { name: "weather-report", description: "Fetch the weather forecast for a city. Use when the user asks about the weather." },
]);

describe("words of scripts other than Latin", () => {
  it("a request in Japanese, Russian or Thai finds the skill described in it, first and without abstaining", () => {
    for (const [request, skill] of [
      ["この契約書を英語に翻訳して", "japanese-translate"],
      ["заполнить налоговую декларацию", "ru-forms"],
      ["ช่วยสรุปเอกสารนี้", "thai-summary"],
    ] as const) {
      const r = catalog.search(request, { limit: 3 });
      expect([request, r.abstain, r.hits[0]?.name]).toEqual([request, false, skill]);
    }
    expect(catalog.search("fill in this PDF form", { limit: 1 }).hits[0]?.name).toBe("pdf-forms");
  });

  it("Latin words are unchanged: accents folded, case splits kept; full-width and half-width forms unified", () => {
    expect(words("réaction émoji 🎉 FastMCP c++")).toEqual(["reaction", "emoji", "fast", "mcp", "fastmcp", "cpp"]);
    expect(words("ガイド ｶﾞｲﾄﾞ ＰＤＦ")).toEqual(["ガイ", "イド", "ガイ", "イド", "pdf"]);
  });
});

describe("contractions", () => {
  // "don't know" made the pair 'don know', which a skill heading "Don't know the API name?" matched as a phrase.
  it("are no search terms, typed with or without the apostrophe", () => {
    expect(terms("I don't know what's in it, it isn't clean and we've tried; dont know, cant open it, won't load")).toEqual(["know", "clean", "tri", "know", "open", "load"]);
  });
});
