// Entry of the `omniforge` command line. Each command lives in ./commands/<group>-<verb>.ts and exports
// `run(args: string[], io: CliIO): Promise<number>` (the exit code). This file only dispatches.
import type { CliIO } from "./io";
import { defaultIO } from "./io";

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
  } catch (e) {
    io.err(`omniforge: "${key}" could not be loaded: ${(e as Error).message}\n`);
    return 2;
  }
  return mod.run(argv.slice(2), io);
}
