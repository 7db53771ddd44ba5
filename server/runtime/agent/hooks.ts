// hooks.pre and hooks.post: scripts of the skill run through the ScriptRunner (the sandbox) right after a
// skill is activated and right after it is deactivated, audited as hook_executed.
import type { ScriptResult } from "../sandbox/types";
import { maskSecrets } from "../tools/audit-args";
import { sessionAuditFields } from "../tools/session-audit";
import type { ToolContext } from "../tools/types";
import type { LoadedSkill } from "./skill-source";

export interface HookRun {
  hook: "pre" | "post";
  script: string;
  result: ScriptResult;
}

/** Runs the skill's hook if it has one; returns what ran (or null). Never throws: a failing hook is reported. */
export async function runHook(ctx: ToolContext, skill: LoadedSkill, hook: "pre" | "post", signal?: AbortSignal): Promise<HookRun | null> {
  const script = skill.hooks?.[hook];
  if (!script) return null;
  const started = performance.now();
  let result: ScriptResult;
  if (!ctx.runner) {
    result = { exitCode: null, stdout: "", stderr: "", truncated: false, timedOut: false, durationMs: 0, sandboxed: false, command: [script], refused: "No script runner is configured, so hooks cannot run here" };
  } else {
    try {
      result = await ctx.runner.run({ skillDir: skill.baseDir, script, scratchDir: ctx.scratchDir, ...(signal ? { signal } : {}) });
    } catch (e) {
      result = { exitCode: null, stdout: "", stderr: "", truncated: false, timedOut: false, durationMs: performance.now() - started, sandboxed: false, command: [script], refused: (e as Error).message };
    }
  }
  try {
    ctx.audit.record({
      type: "hook_executed",
      ...sessionAuditFields(ctx),
      skill: skill.name,
      layer: skill.layer,
      digest: skill.digest,
      tool: `hooks.${hook}`,
      outcome: result.refused ? "refused" : result.exitCode === 0 && !result.timedOut ? "ok" : "failed",
      durationMs: result.durationMs,
      details: {
        hook,
        script,
        command: result.command.map((a) => maskSecrets(a).slice(0, 500)),
        exitCode: result.exitCode,
        sandboxed: result.sandboxed,
        timedOut: result.timedOut,
        ...(result.refused ? { refused: result.refused } : {}),
      },
    });
  } catch {
    // the sink reports its own failures
  }
  return { hook, script, result };
}

/** One line for the model about a hook that ran. */
export function hookNote(run: HookRun, skill: string): string {
  const r = run.result;
  const status = r.refused ? `not run: ${r.refused}` : r.timedOut ? "timed out" : `exit code ${r.exitCode}`;
  const out = r.stdout.trim() ? `; output: ${r.stdout.trim().slice(0, 500)}` : "";
  return `[hooks.${run.hook} of '${skill}' (${run.script}): ${status}${out}]`;
}
