// Entry of the `omniforge` command line. Each command lives in ./commands/<group>-<verb>.ts and exports
// `run(args: string[], io: CliIO): Promise<number>` (the exit code). This file only dispatches.
import type { CliIO } from "./io";
import { defaultIO } from "./io";

type CommandModule = { run(args: string[], io: CliIO): Promise<number>; summary: string };

const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  "skill validate": () => import("./commands/skill-validate"),
  "skill read-properties": () => import("./commands/skill-read-properties"),
  "skill to-prompt": () => import("./commands/skill-to-prompt"),
  "skill list": () => import("./commands/skill-list"),
  "skill install": () => import("./commands/skill-install"),
  "skill deploy": () => import("./commands/skill-deploy"),
  "sandbox check": () => import("./commands/sandbox-check"),
  "agent run": () => import("./commands/agent-run"),
};

export async function main(argv: string[], io: CliIO = defaultIO): Promise<number> {
  const key = argv.slice(0, 2).join(" ");
  const load = COMMANDS[key];
  if (!load) {
    const wantsHelp = argv.length === 0 || argv[0] === "help" || argv[0] === "--help" || argv[0] === "-h";
    io.err(wantsHelp ? "" : `omniforge: unknown command "${argv.join(" ")}"\n`);
    io.err("usage: omniforge <group> <command> [options]\n\ncommands:\n");
    for (const name of Object.keys(COMMANDS)) io.err(`  omniforge ${name}\n`);
    return wantsHelp ? 0 : 2;
  }
  let mod: CommandModule;
  try {
    mod = await load();
  } catch {
    io.err(`omniforge: "${key}" is not available in this build\n`);
    return 2;
  }
  return mod.run(argv.slice(2), io);
}
