import { describe, expect, it } from "vitest";
import { parseCommand, stringFlags } from "./args";
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

  it("hands back the flags when everything is there, and --help still wins over missing flags", () => {
    const ok = parse(["--from", "http://x", "--token", "t"], capture().cli);
    expect(ok).toMatchObject({ values: { from: "http://x", token: "t" }, positionals: [] });
    const { io, cli } = capture();
    expect(parse(["--help"], cli)).toBe(0);
    expect(io.out).toBe(`${USAGE}\n`);
  });
});
