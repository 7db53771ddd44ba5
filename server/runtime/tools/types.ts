// The contract of the tools module: what a tool is, what a call returns, and what a tool may see.
// The agent loop, the playground and the CLI only use these types and ./index.ts.
import type { z } from "zod";
import type { AuditSink } from "../audit/events";
import type { ScriptRunner } from "../sandbox/types";
import type { SkillStack } from "./stack";
import type { ActiveSkill, CallSubject } from "./subject";

export type { ActiveSkill, CallSubject } from "./subject";

/** A JSON schema object, for tools that do not use zod. Only `type`, `properties`, `required` are checked. */
export interface JsonSchemaObject {
  type: "object";
  properties?: Record<string, { type?: string | string[]; description?: string; [k: string]: unknown }>;
  required?: string[];
  [k: string]: unknown;
}

export type ToolInputSchema = z.ZodType | JsonSchemaObject;

/** What a tool's run() may return: plain text, or text plus structured data for the console. */
export type ToolRunOutput = string | { output: string; ok?: boolean; error?: string; data?: unknown };

export interface ToolDefinition<I = any> {
  /** Canonical name, lower case with underscores or dots (read_file, skills.load). */
  name: string;
  description: string;
  inputSchema: ToolInputSchema;
  run(input: I, ctx: ToolContext): Promise<ToolRunOutput> | ToolRunOutput;
  /** What the allowed-tools patterns with arguments (Bash(git:*), Read(docs/**)) are matched against. */
  subject?(input: I, ctx: ToolContext): CallSubject;
}

export interface ToolCall {
  name: string;
  input: unknown;
  /** The model's id for the call; echoed in the audit details. */
  callId?: string;
}

export interface ToolRefusal {
  /** The skill whose rule refused the call (the most recently activated one when several did). */
  skill: string;
  /** That skill's allowed-tools patterns as written (empty for rules other than allowed-tools). */
  allowed: string[];
  rule: "allowed-tools" | "script-read";
}

export interface ToolResult {
  ok: boolean;
  /** Text for the model: the output, or the error explained. */
  output: string;
  error?: string;
  refused?: ToolRefusal;
  data?: unknown;
  /** The canonical tool name that handled (or refused) the call; absent for unknown tools. */
  tool?: string;
  durationMs: number;
}

export interface ToolContext {
  sessionId: string;
  userId: string;
  /** Absolute per-session scratch folder: the only place write_file writes. */
  scratchDir: string;
  stack: SkillStack;
  /** Runs scripts and bash commands; absent means script tools answer that scripts cannot run here. */
  runner?: ScriptRunner;
  audit: AuditSink;
  model?: string;
  /** Disclosure mode (tool | prompt | orchestrated), for the audit. */
  mode?: string;
  /** The current agent run; skills activated during it are tagged with it, and its audit events carry it. */
  runId?: string;
  /** The context the run's skills were resolved for (seed 000's audit: tenant, agent, environment). */
  scope?: { tenant?: string; agent?: string; environment?: string };
  /**
   * Extra read-only roots besides active skill folders and the scratch, e.g. the folders of the skills
   * listed in `prompt` mode, where the model reads SKILL.md with read_file before anything is active.
   */
  readRoots?: string[];
  /** Byte cap of read_file output (default 256 KiB). */
  maxReadBytes?: number;
}
