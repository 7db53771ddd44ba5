// The one executor every tool call goes through. Before a tool runs it checks the active skills'
// allowed-tools (intersection over the stack); a refused call never runs. Every call is audited.
// Restrictions live in the stack, outside the call, so a tool that throws cannot lift them.
import { AsyncLocalStorage } from "node:async_hooks";
import { z } from "zod";
import type { AuditEvent, AuditOutcome, AuditSink } from "../audit/events";
import { auditArguments } from "./audit-args";
import { sessionAuditFields } from "./session-audit";
import { ScriptReadBlockedError } from "./paths";
import { matchesPattern, type CallForMatch } from "./patterns";
import type { CallSubject, JsonSchemaObject, ToolCall, ToolContext, ToolDefinition, ToolInputSchema, ToolResult } from "./types";

/** Tools that stay callable under any restriction, so an agent can always drop a skill that cannot do the task (or find another). */
export const DEFAULT_ALWAYS_CALLABLE = ["skill", "skills.load", "skills.unload", "skill_search", "skills.search"] as const;

export interface ExecutorOptions {
  tools: ToolDefinition[];
  /** Where events go; defaults to context.audit. */
  audit?: AuditSink;
  context: Omit<ToolContext, "audit"> & { audit?: AuditSink };
  /** Replaces DEFAULT_ALWAYS_CALLABLE (names, case-insensitive). */
  alwaysCallable?: readonly string[];
}

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON schema of the input, for the model. */
  parameters: Record<string, unknown>;
}

/**
 * Each tool's JSON schema, converted once: the schemas are module constants, and converting them again for every
 * model call was a tenth of a trigger run's time per query (issue 35 item 5).
 */
const jsonSchemas = new WeakMap<z.ZodType, Record<string, unknown>>();
function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  let known = jsonSchemas.get(schema);
  if (!known) jsonSchemas.set(schema, (known = z.toJSONSchema(schema) as Record<string, unknown>));
  return known;
}

function isZod(schema: ToolInputSchema): schema is z.ZodType {
  return typeof (schema as { safeParse?: unknown }).safeParse === "function";
}

function jsonTypeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

/** Shallow JSON-schema check: an object, required keys present, declared primitive types respected. */
function checkJsonSchema(schema: JsonSchemaObject, input: unknown): string | null {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return "the input must be an object";
  const obj = input as Record<string, unknown>;
  for (const key of schema.required ?? []) if (obj[key] === undefined) return `missing required parameter "${key}"`;
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    if (obj[key] === undefined || !prop.type) continue;
    const types = Array.isArray(prop.type) ? prop.type : [prop.type];
    const actual = jsonTypeOf(obj[key]);
    if (!types.some((t) => t === actual || (t === "number" && actual === "integer"))) {
      return `parameter "${key}" should be ${types.join(" or ")}, got ${actual}`;
    }
  }
  return null;
}

export class Executor {
  readonly context: ToolContext;
  /**
   * Calls run one at a time: a restriction check must never see a stack that another call is changing,
   * and restoring the stack after a throw must never undo a concurrent activation (which would widen).
   * A tool that calls back into its own executor (a hook, a helper) runs at once instead of deadlocking.
   */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly inCall = new AsyncLocalStorage<boolean>();
  private readonly byName = new Map<string, ToolDefinition>();
  private readonly alwaysCallable: Set<string>;

  constructor(opts: ExecutorOptions) {
    const audit = opts.audit ?? opts.context.audit;
    if (!audit) throw new Error("Executor needs an audit sink (options.audit or context.audit)");
    this.context = { ...opts.context, audit };
    this.alwaysCallable = new Set((opts.alwaysCallable ?? DEFAULT_ALWAYS_CALLABLE).map((n) => n.toLowerCase()));
    for (const t of opts.tools) this.register(t);
  }

  /** Registers a tool; names are unique regardless of case, so "READ_FILE" can never be a second tool. */
  register(tool: ToolDefinition): void {
    const key = tool.name.toLowerCase();
    if (this.byName.has(key)) throw new Error(`A tool named '${tool.name}' is already registered`);
    this.byName.set(key, tool);
  }

  get(name: string): ToolDefinition | undefined {
    return typeof name === "string" ? this.byName.get(name.trim().toLowerCase()) : undefined;
  }

  list(): ToolDefinition[] {
    return [...this.byName.values()];
  }

  isAlwaysCallable(name: string): boolean {
    return this.alwaysCallable.has(name.toLowerCase());
  }

  /** Tool descriptions for a model call. */
  specs(): ToolSpec[] {
    return this.list().map((t) => ({
      name: t.name,
      description: t.description,
      parameters: isZod(t.inputSchema) ? jsonSchemaOf(t.inputSchema) : (t.inputSchema as Record<string, unknown>),
    }));
  }

  private record(event: Omit<AuditEvent, "actor" | "sessionId" | "model" | "mode">): void {
    const ctx = this.context;
    try {
      ctx.audit.record({
        ...sessionAuditFields(ctx),
        ...event,
      });
    } catch {
      // An audit sink that fails must not turn a refusal into a crash; the host's sink reports its own errors.
    }
  }

  private skillFields(skill: { name: string; layer: string; digest: string } | undefined) {
    return skill ? { skill: skill.name, layer: skill.layer, digest: skill.digest } : {};
  }

  execute(call: ToolCall): Promise<ToolResult> {
    if (this.inCall.getStore()) return this.executeNow(call);
    const run = this.queue
      .then(() => this.inCall.run(true, () => this.executeNow(call)))
      .catch((err): ToolResult => {
        // executeNow catches tool errors itself; this is the last guard so a call never rejects.
        const error = `Tool call failed: ${err instanceof Error ? err.message : String(err)}`;
        return { ok: false, output: error, error, durationMs: 0 };
      });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async executeNow(call: ToolCall): Promise<ToolResult> {
    const started = performance.now();
    const ms = () => Math.round((performance.now() - started) * 100) / 100;
    const ctx = this.context;
    const top = ctx.stack.top();
    const rawName = typeof call?.name === "string" ? call.name : String(call?.name);
    const name = rawName.length > 100 ? `${rawName.slice(0, 100)}…` : rawName;
    const args = auditArguments(call?.input);
    const baseDetails = { ...(call?.callId ? { callId: call.callId } : {}), args };

    const def = this.get(rawName);
    if (!def) {
      const error = `Unknown tool '${name}'. Available tools: ${this.list().map((t) => t.name).join(", ")}`;
      this.record({ type: "tool_call", ...this.skillFields(top), tool: name, outcome: "failed", durationMs: ms(), details: { ...baseDetails, error: "unknown_tool" } });
      return { ok: false, output: error, error, durationMs: ms() };
    }
    const tool = def.name;

    // Input shape.
    let input: unknown = call.input ?? {};
    // Some providers hand over the arguments as JSON text.
    if (typeof input === "string") {
      try {
        input = JSON.parse(input || "{}");
      } catch {
        const error = `Invalid input for ${tool}: the arguments are not valid JSON`;
        this.record({ type: "tool_call", ...this.skillFields(top), tool, outcome: "failed", durationMs: ms(), details: { ...baseDetails, error } });
        return { ok: false, output: error, error, tool, durationMs: ms() };
      }
    }
    if (isZod(def.inputSchema)) {
      const parsed = def.inputSchema.safeParse(input);
      if (!parsed.success) {
        const error = `Invalid input for ${tool}: ${parsed.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ")}`;
        this.record({ type: "tool_call", ...this.skillFields(top), tool, outcome: "failed", durationMs: ms(), details: { ...baseDetails, error } });
        return { ok: false, output: error, error, tool, durationMs: ms() };
      }
      input = parsed.data;
    } else {
      const problem = checkJsonSchema(def.inputSchema, input);
      if (problem) {
        const error = `Invalid input for ${tool}: ${problem}`;
        this.record({ type: "tool_call", ...this.skillFields(top), tool, outcome: "failed", durationMs: ms(), details: { ...baseDetails, error } });
        return { ok: false, output: error, error, tool, durationMs: ms() };
      }
    }

    // Restrictions: the call is checked under its canonical name, whatever case the model used.
    const restrictions = this.isAlwaysCallable(tool) ? [] : ctx.stack.restrictions().reverse();
    if (restrictions.length > 0) {
      let subject: CallSubject = {};
      try {
        subject = def.subject?.(input, ctx) ?? {};
      } catch {
        subject = {}; // an unreadable subject matches no argument pattern: refused, never widened
      }
      const forMatch: CallForMatch = { tool, ...subject };
      const refusing = restrictions.filter((r) => !r.patterns.some((p) => matchesPattern(forMatch, p)));
      if (refusing.length > 0) {
        const first = refusing[0]!;
        const allowed = first.skill.allowedTools ?? [];
        const what = subject.commandLine ?? subject.path;
        const others = refusing.slice(1).map((r) => `'${r.skill.name}'`);
        const error =
          `Tool '${tool}'${what ? ` (${what.length > 120 ? what.slice(0, 120) + "…" : what})` : ""} is not allowed by active skill '${first.skill.name}'. ` +
          `Allowed tools: ${allowed.join(", ") || "(none)"}.` +
          (others.length ? ` Also refused by ${others.join(", ")}.` : "") +
          ` If the task needs this tool, ${deactivateHint(this.context.mode)}`;
        this.record({
          type: "tool_restriction_violated",
          ...this.skillFields(first.skill),
          tool,
          outcome: "refused",
          durationMs: ms(),
          details: { ...baseDetails, allowed, refusedBy: refusing.map((r) => r.skill.name) },
        });
        return { ok: false, output: error, error, refused: { skill: first.skill.name, allowed, rule: "allowed-tools" }, tool, durationMs: ms() };
      }
    }

    const snapshot = ctx.stack.snapshot();
    try {
      const out = await def.run(input, ctx);
      const result = typeof out === "string" ? { output: out } : out;
      const ok = result.ok !== false && !result.error;
      const outcome: AuditOutcome = ok ? "allowed" : "failed";
      this.record({
        type: "tool_call",
        ...this.skillFields(top),
        tool,
        outcome,
        durationMs: ms(),
        details: { ...baseDetails, ...(result.error ? { error: result.error } : {}) },
      });
      return {
        ok,
        output: result.output,
        ...(result.error ? { error: result.error } : !ok ? { error: result.output } : {}),
        ...(result.data !== undefined ? { data: result.data } : {}),
        tool,
        durationMs: ms(),
      };
    } catch (err) {
      ctx.stack.restore(snapshot); // a tool that throws leaves the skill stack as it was
      if (err instanceof ScriptReadBlockedError) {
        const owner = ctx.stack.find(err.skill);
        // Named after the mode's own script tool (orchestrated mode has skills.run_script, not run_script).
        const error = ctx.mode === "orchestrated" ? err.message.replace("run it with run_script", "run it with skills.run_script") : err.message;
        this.record({
          type: "script_read_blocked",
          ...(owner ? this.skillFields(owner) : { skill: err.skill }),
          tool,
          outcome: "refused",
          durationMs: ms(),
          details: { ...baseDetails, script: err.script },
        });
        return { ok: false, output: error, error, refused: { skill: err.skill, allowed: [], rule: "script-read" }, tool, durationMs: ms() };
      }
      const error = err instanceof Error ? err.message : String(err);
      this.record({ type: "tool_call", ...this.skillFields(top), tool, outcome: "failed", durationMs: ms(), details: { ...baseDetails, error } });
      return { ok: false, output: `Error from ${tool}: ${error}`, error, tool, durationMs: ms() };
    }
  }
}

/** How to drop a refusing skill, in the mode's own tools: orchestrated mode has no `skill` tool, prompt mode no way at all. */
export function deactivateHint(mode: string | undefined): string {
  if (mode === "orchestrated") return "unload the skill with skills.unload.";
  if (mode === "prompt") return "tell the user: a skill activated by reading its SKILL.md stays active until the run ends.";
  return "deactivate the skill with the skill tool.";
}
