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

/** Bytes kept from each end of a script's stdout and stderr in its audit row (seed 001 keeps the output). */
export const AUDIT_OUTPUT_EDGE_BYTES = 4096;

/**
 * A script's output as its audit row keeps it: whole up to twice the edge, else the first and last edge bytes
 * with the number left out between them, secrets masked; `bytes` is the size the script wrote.
 */
export function auditedOutput(text: string): { text: string; bytes: number } {
  const buf = Buffer.from(text, "utf8");
  if (buf.length <= 2 * AUDIT_OUTPUT_EDGE_BYTES) return { text: maskSecrets(text), bytes: buf.length };
  const head = buf.subarray(0, AUDIT_OUTPUT_EDGE_BYTES).toString("utf8");
  const tail = buf.subarray(buf.length - AUDIT_OUTPUT_EDGE_BYTES).toString("utf8");
  const cut = buf.length - 2 * AUDIT_OUTPUT_EDGE_BYTES;
  return { text: maskSecrets(`${head}\n[... ${cut} bytes left out ...]\n${tail}`), bytes: buf.length };
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
      ...outputFields("stdout", r.stdout),
      ...outputFields("stderr", r.stderr),
      ...(ctx.runId ? { runId: ctx.runId } : {}),
    },
  });
}

function outputFields(name: "stdout" | "stderr", text: string): Record<string, unknown> {
  if (!text) return { [`${name}Bytes`]: 0 };
  const o = auditedOutput(text);
  return { [name]: o.text, [`${name}Bytes`]: o.bytes };
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
