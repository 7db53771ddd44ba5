// Entry of the `omniforge` command line. Each command lives in ./commands/<group>-<verb>.ts and exports
// `run(args: string[], io: CliIO): Promise<number>` (the exit code). This file only dispatches.
import { errorLine } from "./error-line";
import { printable } from "./printable";
import { nearest } from "../domain/suggest";
import type { CliIO } from "./io";
import pkg from "../../package.json" with { type: "json" };

const VERSION = pkg.version;

type CommandModule = { run(args: string[], io: CliIO): Promise<number>; summary: string };

// Command name -> its module, loaded on demand so `omniforge skill validate` never pays for the agent runtime's
// imports. Registering a command is one line here; the bundle (scripts/cli-bundle.mjs) splits each into a chunk.
const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  "skill validate": () => import("./commands/skill-validate"),
  "skill read-properties": () => import("./commands/skill-read-properties"),
  "skill to-prompt": () => import("./commands/skill-to-prompt"),
  "skill list": () => import("./commands/skill-list"),
  "skill search": () => import("./commands/skill-search"),
  "skill eval": () => import("./commands/skill-eval"),
  "skill doctor": () => import("./commands/skill-doctor"),
  "skill install": () => import("./commands/skill-install"),
  "skill deploy": () => import("./commands/skill-deploy"),
  "sandbox check": () => import("./commands/sandbox-check"),
  init: () => import("./commands/init"),
  "agent run": () => import("./commands/agent-run"),
  "policy list": () => import("./commands/policy").then((m) => m.command("list")),
  "policy block": () => import("./commands/policy").then((m) => m.command("block")),
  "policy unblock": () => import("./commands/policy").then((m) => m.command("unblock")),
  "policy export": () => import("./commands/policy").then((m) => m.command("export")),
  "policy import": () => import("./commands/policy").then((m) => m.command("import")),
  "token create": () => import("./commands/token-create"),
  "source add": () => import("./commands/source").then((m) => m.command("add")),
  "source list": () => import("./commands/source").then((m) => m.command("list")),
  "source update": () => import("./commands/source").then((m) => m.command("update")),
  "source rollback": () => import("./commands/source").then((m) => m.command("rollback")),
  "source remove": () => import("./commands/source").then((m) => m.command("remove")),
  "publish marketplace": () => import("./commands/publish-marketplace"),
  "db copy": () => import("./commands/db-copy"),
  sync: () => import("./commands/sync"),
};

/** The command argv names ("skill list", "init"), or null when it names none (--help, a typo). */
export function commandOf(argv: string[]): string | null {
  // Two-word commands ("skill list") and one-word ones ("init").
  const single = argv[0] !== undefined && !argv[0].startsWith("-") && COMMANDS[argv[0]] !== undefined;
  const key = single ? argv[0]! : argv.slice(0, 2).join(" ");
  return Object.hasOwn(COMMANDS, key) ? key : null;
}

/** `io` is the process's streams, environment and folder (bin/omniforge.mjs), or a test's capture. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  const key = commandOf(argv);
  const single = key !== null && !key.includes(" ");
  const load = key === null ? undefined : COMMANDS[key];
  if (argv[0] === "--version" || argv[0] === "-v") {
    io.out(`omniforge ${VERSION}\n`);
    return 0;
  }
  // `omniforge policy` alone: that group's commands, one line each.
  const group = Object.keys(COMMANDS).filter((k) => k.startsWith(`${argv[0]} `));
  if (!load && group.length && (argv.length === 1 || argv[1] === "--help" || argv[1] === "-h")) {
    io.out(`omniforge ${argv[0]} commands:\n`);
    for (const k of group) {
      const mod = await COMMANDS[k]!().catch(() => null);
      io.out(`  omniforge ${k.padEnd(24)} ${mod?.summary ?? ""}\n`);
    }
    return 0;
  }
  if (!load) {
    const wantsHelp = argv.length === 0 || argv[0] === "help" || argv[0] === "--help" || argv[0] === "-h";
    // Asked-for help is output (`omniforge --help | less`), as each command's own --help is; a wrong command is an error.
    const write = wantsHelp ? io.out : io.err;
    if (!wantsHelp) {
      const asked = argv.slice(0, 2).join(" ");
      // "skil list" and "sycn --from …": the command it is nearest to, by its first word or its first two.
      const meant = nearest(asked, Object.keys(COMMANDS)) ?? nearest(argv[0] ?? "", Object.keys(COMMANDS).filter((k) => !k.includes(" ")));
      write(`omniforge: unknown command "${printable(argv.join(" "))}"${meant ? `: did you mean "omniforge ${meant}"?` : ""}\n`);
    }
    write("usage: omniforge <group> <command> [options]\n\ncommands:\n");
    for (const name of Object.keys(COMMANDS)) write(`  omniforge ${name}\n`);
    return wantsHelp ? 0 : 2;
  }
  let mod: CommandModule;
  try {
    mod = await load();
  } catch (e) {
    io.err(`omniforge: "${key}" could not be loaded: ${(e as Error).message}\n`);
    return 2;
  }
  try {
    return await mod.run(argv.slice(single ? 1 : 2), io);
  } catch (e) {
    return unexpected(key!, e, io);
  }
}

/**
 * What no command expected (a folder it may not write, a disk that is full, a bug): one line naming the command and
 * the cause, exit 1. The stack is for whoever debugs it, with OMNIFORGE_DEBUG=1; loaded here only, as env.ts's
 * schema library costs a start what no successful command should pay.
 */
async function unexpected(key: string, e: unknown, io: CliIO): Promise<number> {
  io.err(`omniforge ${key}: ${errorLine(e)}\n`);
  let debug = false;
  try {
    const { setting } = await import("../../env");
    debug = setting("OMNIFORGE_DEBUG", io.env);
  } catch (bad) {
    io.err(`omniforge: ${(bad as Error).message}\n`);
  }
  if (debug && e instanceof Error && e.stack) io.err(`${e.stack}\n`);
  return 1;
}
