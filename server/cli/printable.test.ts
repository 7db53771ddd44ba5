import { describe, expect, it } from "vitest";
import { printable } from "./printable";

describe("printable", () => {
  it("writes terminal control characters out as \\uXXXX and leaves other text as it is", () => {
    expect(printable("\u001b[2Jcleared")).toBe("\\u001b[2Jcleared");
    expect(printable("a\nb\tc\rd\u0000e\u007ff\u0085g\u009bh")).toBe("a\\u000ab\\u0009c\\u000dd\\u0000e\\u007ff\\u0085g\\u009bh");
    expect(printable("x\u2028y\u2029z")).toBe("x\\u2028y\\u2029z");
    expect(printable("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")).toBe("\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069");
    expect(printable("café ☕ 日本 C:\\dir \u00a0")).toBe("café ☕ 日本 C:\\dir \u00a0");
  });
});
