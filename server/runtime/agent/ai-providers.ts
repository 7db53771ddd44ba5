// Real model providers through the `ai` package (v7): an OpenAI-compatible endpoint over the chat
// completions API (OpenAI, Ollama, vLLM, LM Studio) and Anthropic. One model call per step, tools declared
// with JSON schema and no execute function, so the SDK never runs a tool itself: every call comes back to
// the agent loop and goes through our executor.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, jsonSchema, streamText, tool, type LanguageModel, type ModelMessage, type ToolSet } from "ai";
import type { ChatMessage, ModelProvider, ModelRequest, ModelResponse, ModelToolCall } from "./types";

/** Tool names on the wire: providers accept [A-Za-z0-9_-] only, so "skills.load" travels as "skills_load". */
export function wireName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, "_");
}

export function toModelMessages(messages: ChatMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const m of messages) {
    if (m.role === "user") out.push({ role: "user", content: m.content });
    else if (m.role === "assistant") {
      const parts: Exclude<Extract<ModelMessage, { role: "assistant" }>["content"], string> = [];
      if (m.content) parts.push({ type: "text", text: m.content });
      for (const c of m.toolCalls ?? []) parts.push({ type: "tool-call", toolCallId: c.id, toolName: wireName(c.name), input: c.input ?? {} });
      out.push({ role: "assistant", content: parts.length ? parts : m.content });
    } else {
      const output = m.isError ? { type: "error-text" as const, value: m.content } : { type: "text" as const, value: m.content };
      out.push({ role: "tool", content: [{ type: "tool-result", toolCallId: m.callId, toolName: wireName(m.tool), output }] });
    }
  }
  return out;
}

export class AiSdkProvider implements ModelProvider {
  constructor(
    readonly name: string,
    readonly model: string,
    private readonly languageModel: LanguageModel,
    readonly contextTokens: number,
    /** Cap of one answer; Anthropic requires one, and an explicit value avoids guessing per model. */
    private readonly maxOutputTokens = 4096,
    /** Longest one model call may take (OMNIFORGE_MODEL_TIMEOUT_SECONDS): a server that never answers must not hang a run or a CI job. */
    private readonly timeoutMs = DEFAULT_MODEL_TIMEOUT_SECONDS * 1000,
  ) {}

  async complete(req: ModelRequest): Promise<ModelResponse> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const tools: ToolSet = {};
    const byWire = new Map<string, string>();
    for (const t of req.tools) {
      const w = wireName(t.name);
      byWire.set(w, t.name);
      // "$schema" (added by zod) is dropped: some OpenAI-compatible servers reject unknown top-level keys.
      const { $schema: _drop, ...parameters } = t.parameters;
      tools[w] = tool({ description: t.description, inputSchema: jsonSchema(parameters as Parameters<typeof jsonSchema>[0]) });
    }
    const common = {
      model: this.languageModel,
      instructions: req.system,
      messages: toModelMessages(req.messages),
      ...(req.tools.length ? { tools, toolChoice: "auto" as const } : {}),
      maxRetries: 1,
      maxOutputTokens: this.maxOutputTokens,
      abortSignal: req.signal ? AbortSignal.any([req.signal, timeout]) : timeout,
    };
    // Streamed when someone listens (the playground): text reaches the page as it comes, and stop cuts it mid-way.
    let result: Pick<Awaited<ReturnType<typeof generateText>>, "text" | "toolCalls" | "usage">;
    try {
      result = req.onTextDelta ? await this.streamed(common, req.onTextDelta) : await generateText(common);
    } catch (e) {
      if (timeout.aborted && !req.signal?.aborted) {
        throw new Error(`${this.name} (${this.model}) did not finish answering within ${this.timeoutMs / 1000} s (OMNIFORGE_MODEL_TIMEOUT_SECONDS)`);
      }
      throw e;
    }
    const toolCalls: ModelToolCall[] = result.toolCalls.map((c, k) => ({
      id: c.toolCallId || `call-${k}`,
      name: byWire.get(c.toolName) ?? c.toolName,
      input: c.input ?? {},
    }));
    return {
      text: result.text ?? "",
      toolCalls,
      usage: { inputTokens: result.usage?.inputTokens, outputTokens: result.usage?.outputTokens },
    };
  }

  /** One streamed call: deltas go to `onDelta`; the same shape as generateText's result comes back. */
  private async streamed(options: Parameters<typeof generateText>[0], onDelta: (text: string) => void) {
    let failure: unknown = null;
    const result = streamText({ ...(options as Parameters<typeof streamText>[0]), onError: ({ error }) => void (failure ??= error) });
    for await (const delta of result.textStream) if (delta) onDelta(delta);
    if (failure) throw failure;
    const [text, toolCalls, usage, finishReason] = await Promise.all([result.text, result.toolCalls, result.usage, result.finishReason]);
    // A connection closed mid-answer ends the stream as cleanly as a finished one: only the missing finish reason
    // tells them apart. What arrived is part of an answer, and must not be taken for the whole of it. (Nothing at
    // all is the empty answer, which the caller names as such.)
    if (finishReason === "interrupted" && (text || toolCalls.length)) throw new Error(`${this.name} (${this.model}) stopped answering mid-way: the stream ended without a finish reason`);
    return { text, toolCalls, usage };
  }
}

export class ProviderConfigError extends Error {}

function positiveInt(v: string | undefined, fallback: number): number {
  const n = v ? Number(v) : NaN;
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** One model call's time limit: a streamed answer included, so it is generous. */
export const DEFAULT_MODEL_TIMEOUT_SECONDS = 300;
const timeoutMsOf = (env: Record<string, string | undefined>) => positiveInt(env.OMNIFORGE_MODEL_TIMEOUT_SECONDS, DEFAULT_MODEL_TIMEOUT_SECONDS) * 1000;

/**
 * OpenAI-compatible: OPENAI_BASE_URL (default https://api.openai.com/v1), OPENAI_API_KEY (local servers accept
 * any value), OMNIFORGE_MODEL (default gpt-4o-mini), OMNIFORGE_CONTEXT_TOKENS (default 128000),
 * OMNIFORGE_MAX_OUTPUT_TOKENS (default 4096).
 */
export function openAiCompatibleProvider(env: Record<string, string | undefined>): AiSdkProvider {
  const baseURL = env.OPENAI_BASE_URL?.trim() || undefined;
  const apiKey = env.OPENAI_API_KEY?.trim() || (baseURL ? "not-needed" : undefined);
  if (!apiKey) throw new ProviderConfigError("The openai provider needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local server such as Ollama)");
  const model = env.OMNIFORGE_MODEL?.trim() || "gpt-4o-mini";
  const openai = createOpenAI({ ...(baseURL ? { baseURL } : {}), apiKey, name: "openai-compatible" });
  // .chat(): the chat completions API, which every OpenAI-compatible server implements (not the responses API).
  return new AiSdkProvider("openai", model, openai.chat(model), positiveInt(env.OMNIFORGE_CONTEXT_TOKENS, 128_000), positiveInt(env.OMNIFORGE_MAX_OUTPUT_TOKENS, 4096), timeoutMsOf(env));
}

/** Anthropic: ANTHROPIC_API_KEY, OMNIFORGE_MODEL (default claude-sonnet-4-5), ANTHROPIC_BASE_URL optional. */
export function anthropicProvider(env: Record<string, string | undefined>): AiSdkProvider {
  const apiKey = env.ANTHROPIC_API_KEY?.trim();
  if (!apiKey) throw new ProviderConfigError("The anthropic provider needs ANTHROPIC_API_KEY");
  const model = env.OMNIFORGE_MODEL?.trim() || "claude-sonnet-4-5";
  const baseURL = env.ANTHROPIC_BASE_URL?.trim() || undefined;
  const anthropic = createAnthropic({ apiKey, ...(baseURL ? { baseURL } : {}) });
  return new AiSdkProvider("anthropic", model, anthropic(model), positiveInt(env.OMNIFORGE_CONTEXT_TOKENS, 200_000), positiveInt(env.OMNIFORGE_MAX_OUTPUT_TOKENS, 4096), timeoutMsOf(env));
}
