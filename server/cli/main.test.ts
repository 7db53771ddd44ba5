// The top level of the command line as a person meets it: help that pipes, a wrong command that says so.
import { describe, expect, it } from "vitest";
import type { CliIO } from "./io";
import { main } from "./main";

async function omniforge(...argv: string[]) {
  let out = "";
  let err = "";
  const io: CliIO = { out: (t) => void (out += t), err: (t) => void (err += t), env: {}, cwd: process.cwd() };
  const code = await main(argv, io);
  return { code, out, err };
}

describe("omniforge", () => {
  it.each([["--help"], ["-h"], ["help"], []])("%s lists the commands on stdout, exit 0", async (...argv) => {
    const r = await omniforge(...argv.filter(Boolean));
    expect(r).toMatchObject({ code: 0, err: "" });
    expect(r.out).toContain("usage: omniforge <group> <command> [options]");
    expect(r.out).toContain("  omniforge skill validate\n");
  });

  it("an unknown command is an error on stderr with the list, exit 2", async () => {
    const r = await omniforge("skill", "frobnicate");
    expect(r).toMatchObject({ code: 2, out: "" });
    expect(r.err).toMatch(/^omniforge: unknown command "skill frobnicate"\nusage: /);
  });

  it("--version prints the package version", async () => {
    expect((await omniforge("--version")).out).toMatch(/^omniforge \d+\.\d+\.\d+\n$/);
  });
});
