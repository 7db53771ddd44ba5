// The agent: the loop, disclosure modes, providers. Other code imports from here.
export * from "./types";
import type { AgentRunOptions, AgentRunResult } from "./types";

export async function runAgent(_options: AgentRunOptions): Promise<AgentRunResult> {
  throw new Error("runAgent: not implemented yet");
}
