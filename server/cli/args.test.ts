import { describe, expect, it } from "vitest";
import { parseCommand, stringFlags, wholeNumber } from "./args";
import type { CliIO } from "./io";

function capture() {
  const io = { out: "", err: "" };
  return { io, cli: { out: (s: string) => void (io.out += s), err: (s: string) => void (io.err += s) } as unknown as CliIO };
}

const USAGE = "usage: omniforge demo --from URL --token TOKEN";
const parse = (args: string[], cli: CliIO) =>
  parseCommand("demo", USAGE, args, { help: { type: "boolean", short: "h" }, ...stringFlags("from", "token") }, cli, {
    noArguments: true,
    required: { from: "the console's address", token: "" },
  });

describe("a command's expected flags", () => {
  it("names the first missing required flag, with its hint, and shows the usage (exit 2)", () => {
    const { io, cli } = capture();
    expect(parse(["--token", "t"], cli)).toBe(2);
    expect(io.err).toBe(`omniforge demo: --from is required (the console's address)\n${USAGE}\n`);
    const second = capture();
    expect(parse(["--from", "http://x"], second.cli)).toBe(2);
    expect(second.io.err).toMatch(/^omniforge demo: --token is required\n/);
  });

  it("refuses an argument when the command takes flags only", () => {
    const { io, cli } = capture();
    expect(parse(["extra", "--from", "http://x", "--token", "t"], cli)).toBe(2);
    expect(io.err).toMatch(/^omniforge demo: unexpected "extra"\n/);
  });

  it("a mistyped flag gets the flag it is nearest to; one near none gets none", () => {
    const { io, cli } = capture();
    expect(parse(["--tokn", "t", "--from", "http://x"], cli)).toBe(2);
    expect(io.err).toMatch(/^omniforge demo: Unknown option '--tokn': did you mean --token\?\n/);
    const far = capture();
    expect(parse(["--verbose"], far.cli)).toBe(2);
    expect(far.io.err).toMatch(/^omniforge demo: Unknown option '--verbose'\n/);
  });

  it("hands back the flags when everything is there, and --help still wins over missing flags", () => {
    const ok = parse(["--from", "http://x", "--token", "t"], capture().cli);
    expect(ok).toMatchObject({ values: { from: "http://x", token: "t" }, positionals: [] });
    const { io, cli } = capture();
    expect(parse(["--help"], cli)).toBe(0);
    expect(io.out).toBe(`${USAGE}\n`);
  });
});

describe("number flags", () => {
  it("take decimal digits only, in range: not hex, exponents, spaces, signs or nothing", () => {
    expect([wholeNumber("16", 1), wholeNumber("100", 1, 100), wholeNumber("10", 10)]).toEqual([16, 100, 10]);
    for (const v of ["0x10", "1e99", "1e2", " 7", "7 ", "", "-1", "+3", "1.5", "0", "101", "9".repeat(16)]) {
      expect([v, wholeNumber(v, 1, 100)]).toEqual([v, null]);
    }
  });

  it("a value that starts with a dash is named, with the way to write it", () => {
    const { io, cli } = capture();
    expect(parseCommand("demo", USAGE, ["--from", "-1"], { ...stringFlags("from") }, cli)).toBe(2);
    expect(io.err.split("\n")[0]).toBe('omniforge demo: --from needs a value (a value starting with "-" is written --from=-…)');
  });
});
