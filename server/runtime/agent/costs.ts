// Token accounting per disclosure stage for each model call: what the call carried of the listing (stage 1),
// of activated skill bodies (stage 2) and of resources read and script output (stage 3). Everything else
// (rules, tool schemas, the conversation) is "other". Counts are estimates (skill/tokens.ts).
import { estimateTokens } from "../skill/tokens";
import type { ChatMessage, ModelToolSpec, StageCost, StageUsage } from "./types";

export type MessageStage = "stage2" | "stage3" | "other";

/** Which stage a tool's successful result belongs to. Activations are stage 2; file reads and runs stage 3. */
export function stageOfResult(tool: string, data: unknown): MessageStage {
  const d = (data ?? {}) as Record<string, unknown>;
  if (d.fork) return "stage3"; // a fork's answer is the skill's output, not its body
  if (tool === "skill" && typeof d.digest === "string") return "stage2";
  if (tool === "read_file" && typeof d.digest === "string" && typeof d.baseDir === "string") return "stage2"; // a SKILL.md read in prompt mode
  if (["read_file", "skills.read", "run_script", "skills.run_script", "bash", "list_files", "search_files"].includes(tool)) return "stage3";
  return "other";
}

/** The same, for tool results of earlier turns (history), where only the text is left. */
export function stageOfHistory(tool: string, content: string): MessageStage {
  if (content.includes("(context: fork)")) return "stage3";
  if ((tool === "skill" || tool === "read_file") && /^\[?Skill '[^']+' (re-)?activated/.test(content)) return "stage2";
  return stageOfResult(tool, {});
}

const usage = (chars: number, tokens: number): StageUsage => ({ chars, tokens });

export class CostMeter {
  private readonly tokens = new WeakMap<object, number>();
  private readonly stages = new WeakMap<object, MessageStage>();

  tag(message: ChatMessage, stage: MessageStage): void {
    this.stages.set(message, stage);
  }

  private count(m: ChatMessage): number {
    let n = this.tokens.get(m);
    if (n === undefined) {
      n = estimateTokens(messageText(m));
      this.tokens.set(m, n);
    }
    return n;
  }

  measure(
    step: number,
    call: { system: string; tools: ModelToolSpec[]; messages: ChatMessage[]; listing: string; injectedBodies: string },
  ): StageCost {
    const s1 = usage(call.listing.length, estimateTokens(call.listing));
    let s2c = call.injectedBodies.length;
    let s2t = estimateTokens(call.injectedBodies);
    let s3c = 0;
    let s3t = 0;
    let allC = call.system.length;
    let allT = estimateTokens(call.system);
    const toolsText = call.tools.length ? JSON.stringify(call.tools) : "";
    allC += toolsText.length;
    allT += estimateTokens(toolsText);
    for (const m of call.messages) {
      const c = messageText(m).length;
      const t = this.count(m);
      allC += c;
      allT += t;
      const stage = this.stages.get(m);
      if (stage === "stage2") {
        s2c += c;
        s2t += t;
      } else if (stage === "stage3") {
        s3c += c;
        s3t += t;
      }
    }
    return {
      step,
      stage1: s1,
      stage2: usage(s2c, s2t),
      stage3: usage(s3c, s3t),
      other: usage(Math.max(0, allC - s1.chars - s2c - s3c), Math.max(0, allT - s1.tokens - s2t - s3t)),
    };
  }
}

function messageText(m: ChatMessage): string {
  if (m.role === "assistant" && m.toolCalls?.length) return m.content + JSON.stringify(m.toolCalls);
  return m.content;
}
