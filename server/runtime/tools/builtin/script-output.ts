// Shared by run_script and bash: the ScriptResult as text for the model, and its script_executed event.
import { maskSecrets } from "../audit-args";
import { sessionAuditFields } from "../session-audit";
import type { ScriptResult } from "../../sandbox/types";
import type { ActiveSkill, ToolContext, ToolRunOutput } from "../types";

export function formatScriptResult(r: ScriptResult): string {
  if (r.refused) return `Not run: ${r.refused}`;
  const how = r.sandboxed ? "sandboxed" : "NOT sandboxed (unsafe mode)";
  const status = r.timedOut ? "timed out" : r.signal ? `killed by ${r.signal}` : `exit code ${r.exitCode}`;
  const parts = [`$ ${r.command.join(" ")}`, `${status} · ${Math.round(r.durationMs)} ms · ${how}`];
  parts.push(r.stdout ? `--- stdout ---\n${r.stdout}` : "--- stdout --- (empty)");
  if (r.stderr) parts.push(`--- stderr ---\n${r.stderr}`);
  if (r.truncated) parts.push("[output was cut at the output limit]");
  return parts.join("\n");
}

export function recordScriptExecuted(ctx: ToolContext, tool: string, skill: ActiveSkill | undefined, r: ScriptResult): void {
  ctx.audit.record({
    type: "script_executed",
    ...sessionAuditFields(ctx),
    ...(skill ? { skill: skill.name, layer: skill.layer, digest: skill.digest } : {}),
    tool,
    outcome: r.refused ? "refused" : r.exitCode === 0 ? "ok" : "failed",
    durationMs: r.durationMs,
    details: {
      command: r.command.map((a) => maskSecrets(a).slice(0, 500)),
      exitCode: r.exitCode,
      sandboxed: r.sandboxed,
      timedOut: r.timedOut,
      truncated: r.truncated,
      ...(r.signal ? { signal: r.signal } : {}),
      ...(r.refused ? { refused: r.refused } : {}),
    },
  });
}

export function scriptToolOutput(r: ScriptResult): Exclude<ToolRunOutput, string> {
  const data = { exitCode: r.exitCode, sandboxed: r.sandboxed, durationMs: r.durationMs, timedOut: r.timedOut, truncated: r.truncated, command: r.command };
  if (r.refused) return { ok: false, output: formatScriptResult(r), error: r.refused, data };
  const ok = r.exitCode === 0 && !r.timedOut;
  return { ok, output: formatScriptResult(r), data, ...(ok ? {} : { error: r.timedOut ? "timed out" : `exit code ${r.exitCode}` }) };
}

export const NO_RUNNER = "Scripts cannot run in this session: no sandbox is configured for it.";

/**
 * A script tool's result in spec 004's shape, {path, exit_code, stdout, stderr}, plus ours (duration_ms, truncated,
 * sandboxed, and timed_out / signal / env_dropped / workdir when they apply), as JSON text for the model and as data.
 */
export function protocolScriptOutput(rel: string, r: ScriptResult, extra: { workdir?: string; dropped?: { name: string; why: string }[] } = {}): ToolRunOutput {
  const result = {
    path: rel,
    exit_code: r.exitCode,
    stdout: r.stdout,
    stderr: r.stderr,
    duration_ms: Math.round(r.durationMs),
    truncated: r.truncated,
    sandboxed: r.sandboxed,
    ...(r.timedOut ? { timed_out: true } : {}),
    ...(r.signal ? { signal: r.signal } : {}),
    ...(extra.workdir ? { workdir: extra.workdir } : {}),
    ...(extra.dropped?.length ? { env_dropped: extra.dropped.map((d) => `${d.name}: ${d.why}`) } : {}),
  };
  const data = { ...result, exitCode: r.exitCode, durationMs: r.durationMs, timedOut: r.timedOut, command: r.command };
  if (r.refused) return { ok: false, output: formatScriptResult(r), error: r.refused, data };
  const ok = r.exitCode === 0 && !r.timedOut;
  return { ok, output: JSON.stringify(result, null, 2), data, ...(ok ? {} : { error: r.timedOut ? "timed out" : `exit code ${r.exitCode}` }) };
}
