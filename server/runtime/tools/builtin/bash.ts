// bash: a command line run by `bash -c` in the sandbox, working directory /scratch, the top skill's folder
// mounted read-only at /skill. Host paths of the skill and scratch folders in the command are rewritten to
// those mount points when the runner isolates, so "python <base path>/scripts/x.py" works as the skill says.
import fs from "node:fs";
import { z } from "zod";
import { ScriptReadBlockedError } from "../paths";
import { splitShellCommands } from "../patterns";
import type { ToolContext, ToolDefinition } from "../types";
import { NO_RUNNER, recordScriptExecuted, scriptToolOutput } from "./script-output";

const input = z.object({
  command: z.string().min(1).max(100_000).describe("The command line, run with bash -c in /scratch; the skill folder is /skill"),
  stdin: z.string().optional(),
});

/** Commands that print or copy a file's text: pointing one at scripts/ is reading a script. */
const READERS = new Set(["cat", "head", "tail", "less", "more", "nl", "tac", "strings", "xxd", "od", "hexdump", "base64", "sed", "awk", "grep", "egrep", "fgrep", "rg", "cp", "view", "vi", "vim", "nano"]);

const PATTERN_FIRST = new Set(["grep", "egrep", "fgrep", "rg", "sed", "awk"]);

/**
 * Best effort: `cat scripts/x.py` and the like are refused as script reads. A determined command can still
 * read what the sandbox mounts; the sandbox, not this check, is the boundary.
 */
export function scriptReadInCommand(command: string, ctx: ToolContext): ScriptReadBlockedError | null {
  const top = ctx.stack.top();
  if (!top) return null;
  for (const part of splitShellCommands(command) ?? [command]) {
    const words = part.split(/\s+/).filter(Boolean).map((w) => w.replace(/^['"]|['"]$/g, ""));
    const cmd = (words[0] ?? "").split("/").pop()!.toLowerCase();
    if (!READERS.has(cmd)) continue;
    let operands = words.slice(1);
    // grep/sed/awk take a pattern or program first: "grep scripts SKILL.md" searches for the word.
    if (PATTERN_FIRST.has(cmd)) {
      const first = operands.findIndex((w) => !w.startsWith("-"));
      if (first >= 0) operands = operands.filter((_, k) => k !== first);
    }
    for (const w of operands) {
      const m = /(?:^|\/)scripts(?:\/(.*))?$/i.exec(w);
      if (m) return new ScriptReadBlockedError(top.name, m[1] ? `scripts/${m[1]}` : "scripts/");
    }
  }
  return null;
}

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

export const bashTool: ToolDefinition<z.infer<typeof input>> = {
  name: "bash",
  description:
    "Run a shell command (bash -c) in the sandbox. Working directory /scratch (writable); the active skill's folder is /skill (read-only). " +
    "Use it to run a skill's scripts, e.g. python3 /skill/scripts/report.py.",
  inputSchema: input,
  subject: (i) => ({ commandLine: i.command }),
  async run(i, ctx) {
    const blocked = scriptReadInCommand(i.command, ctx);
    if (blocked) throw blocked;
    if (!ctx.runner) return { ok: false, output: NO_RUNNER, error: NO_RUNNER };
    const top = ctx.stack.top();
    const skillDir = top?.baseDir ?? ctx.scratchDir;
    const status = await ctx.runner.status();
    const isolated = status.mode === "sandboxed" || status.mode === "sandboxed-no-cgroup";
    const command = isolated ? toSandboxPaths(i.command, ctx, skillDir) : i.command;
    const result = await ctx.runner.run({ skillDir, command, scratchDir: ctx.scratchDir, ...(i.stdin !== undefined ? { stdin: i.stdin } : {}) });
    recordScriptExecuted(ctx, "bash", top, result);
    return scriptToolOutput(result);
  },
};
