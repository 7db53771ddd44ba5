// Entry of the `omniforge` command line. Each command lives in ./commands/<group>-<verb>.ts and exports
// `run(args: string[], io: CliIO): Promise<number>` (the exit code). This file only dispatches.
import type { CliIO } from "./io";
import { defaultIO } from "./io";

type CommandModule = { run(args: string[], io: CliIO): Promise<number>; summary: string };

// Command name -> module file in ./commands. Loaded on demand so `omniforge skill validate` never pays for
// the agent runtime's imports.
const COMMANDS: Record<string, string> = {
  "skill validate": "skill-validate",
  "skill read-properties": "skill-read-properties",
  "skill to-prompt": "skill-to-prompt",
  "skill list": "skill-list",
  "skill search": "skill-search",
  "skill install": "skill-install",
  "skill deploy": "skill-deploy",
  "sandbox check": "sandbox-check",
  "agent run": "agent-run",
};

const load = (file: string) =>
  import(new URL(`./commands/${file}.ts`, import.meta.url).href) as Promise<CommandModule>;

export async function main(argv: string[], io: CliIO = defaultIO): Promise<number> {
  const key = argv.slice(0, 2).join(" ");
  const file = COMMANDS[key];
  if (!file) {
    const wantsHelp = argv.length === 0 || argv[0] === "help" || argv[0] === "--help" || argv[0] === "-h";
    io.err(wantsHelp ? "" : `omniforge: unknown command "${argv.join(" ")}"\n`);
    io.err("usage: omniforge <group> <command> [options]\n\ncommands:\n");
    for (const name of Object.keys(COMMANDS)) io.err(`  omniforge ${name}\n`);
    return wantsHelp ? 0 : 2;
  }
  let mod: CommandModule;
  try {
    mod = await load(file);
  } catch {
    io.err(`omniforge: "${key}" is not available in this build\n`);
    return 2;
  }
  return mod.run(argv.slice(2), io);
}
