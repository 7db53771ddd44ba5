// bash: a command line run by `bash -c` in the sandbox, working directory /scratch, the top skill's folder
// mounted read-only at /skill without its scripts/ (the sandbox covers it for command runs). A command that is
// exactly one interpreter call of one script ("python3 scripts/x.py a", "python <base path>/scripts/x.py")
// goes through the script door instead and runs that script, as run_script would.
import fs from "node:fs";
import { z } from "zod";
import { SCRIPT_FOLDERS, SCRIPT_FOLDERS_TEXT } from "../../../domain/skill-protocol";
import type { ToolContext, ToolDefinition, ToolRunOutput } from "../types";
import { runSkillScript } from "./run-script";
import { scriptDoorCall } from "./script-door";
import { NO_RUNNER, recordScriptExecuted, scriptToolOutput } from "./script-output";

const input = z.object({
  command: z.string().min(1).max(100_000).describe("The command line, run with bash -c in /scratch; the skill folder is /skill"),
  stdin: z.string().optional(),
});

function toSandboxPaths(command: string, ctx: ToolContext, skillDir: string): string {
  const swap = (text: string, from: string, to: string) => (from.length > 1 ? text.split(from).join(to) : text);
  let out = command;
  const pairs: [string, string][] = [[ctx.scratchDir, "/scratch"]];
  if (skillDir !== ctx.scratchDir) pairs.unshift([skillDir, "/skill"]);
  pairs.sort((a, b) => b[0].length - a[0].length); // a folder nested in the other is replaced first
  for (const [dir, mount] of pairs) {
    let real = dir;
    try {
      real = fs.realpathSync(dir);
    } catch {}
    out = swap(swap(out, dir.replace(/\/+$/, ""), mount), real.replace(/\/+$/, ""), mount);
  }
  return out;
}

// bin/ or tools/ as a path of the skill (not /usr/bin/); scripts anywhere, as before.
const SCRIPT_FOLDER_WORD = new RegExp(`(?:^|[\\s'"=]|/skill/)(?:\\./)?(?:${SCRIPT_FOLDERS.join("|")})\\b`, "i");

/** A failed command that names a script folder is told where scripts are, since the shell shows it empty. */
function withScriptsHint(out: Exclude<ToolRunOutput, string>, command: string, skillActive: boolean): ToolRunOutput {
  if (out.ok || !skillActive || !(/scripts/i.test(command) || SCRIPT_FOLDER_WORD.test(command))) return out;
  return { ...out, output: `${out.output}\n${SCRIPTS_HINT}` };
}

export const SCRIPTS_HINT =
  `[The skill's scripts/ folder is empty in the shell (bin/ and tools/ too): scripts are run, not read. Run one with run_script, or as one plain call such as \`python3 scripts/x.py arg\`.]`;

export const bashTool: ToolDefinition<z.infer<typeof input>> = {
  name: "bash",
  description:
    "Run a shell command (bash -c) in the sandbox. Working directory /scratch (writable); the active skill's folder is /skill (read-only). " +
    `Its script folders (${SCRIPT_FOLDERS_TEXT}) are not visible to general commands; ` + "run a script as one plain call, e.g. python3 scripts/report.py arg.",
  inputSchema: input,
  subject: (i) => ({ commandLine: i.command }),
  async run(i, ctx) {
    if (!ctx.runner) return { ok: false, output: NO_RUNNER, error: NO_RUNNER };
    const top = ctx.stack.top();
    const door = top ? scriptDoorCall(i.command, top) : null;
    if (door) return runSkillScript(ctx, { script: door.script, args: door.args, ...(i.stdin !== undefined ? { stdin: i.stdin } : {}) }, "bash");
    const skillDir = top?.baseDir ?? ctx.scratchDir;
    const status = await ctx.runner.status();
    const isolated = status.mode === "sandboxed" || status.mode === "sandboxed-no-cgroup";
    const command = isolated ? toSandboxPaths(i.command, ctx, skillDir) : i.command;
    const result = await ctx.runner.run({ skillDir, command, scratchDir: ctx.scratchDir, ...(i.stdin !== undefined ? { stdin: i.stdin } : {}) });
    recordScriptExecuted(ctx, "bash", top, result);
    return withScriptsHint(scriptToolOutput(result), i.command, top !== undefined);
  },
};
