// Server-sent event answers for the scripted model servers (test support): what OpenAI's chat completions and
// Anthropic's Messages API send when a client asks for `stream: true`. Text goes out in small pieces, with an
// optional pause between them, so tests can see deltas arrive and stop a turn mid-answer.
import type http from "node:http";

export interface StreamReply {
  content?: string;
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
}

const pieces = (text: string) => text.match(/[\s\S]{1,6}/g) ?? [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function send(res: http.ServerResponse, frames: string[], pauseMs: number): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  for (const f of frames) {
    if (res.destroyed) return;
    res.write(f);
    if (pauseMs) await sleep(pauseMs);
  }
  res.end();
}

export function streamOpenAi(res: http.ServerResponse, reply: StreamReply, n: number, model: string, pauseMs = 0): Promise<void> {
  const base = { id: `chatcmpl-${n}`, object: "chat.completion.chunk", created: 1_700_000_000 + n, model };
  const frame = (o: unknown) => `data: ${JSON.stringify(o)}\n\n`;
  const frames = [frame({ ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] })];
  for (const p of pieces(reply.content ?? "")) frames.push(frame({ ...base, choices: [{ index: 0, delta: { content: p }, finish_reason: null }] }));
  (reply.toolCalls ?? []).forEach((c, k) =>
    frames.push(frame({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: k, id: `call_${n}_${k}`, type: "function", function: { name: c.name, arguments: JSON.stringify(c.arguments) } }] }, finish_reason: null }] })),
  );
  frames.push(frame({ ...base, choices: [{ index: 0, delta: {}, finish_reason: reply.toolCalls?.length ? "tool_calls" : "stop" }] }));
  frames.push(frame({ ...base, choices: [], usage: { prompt_tokens: 100 + n, completion_tokens: 10, total_tokens: 110 + n } }));
  frames.push("data: [DONE]\n\n");
  return send(res, frames, pauseMs);
}

export function streamAnthropic(res: http.ServerResponse, reply: StreamReply, n: number, model: string, pauseMs = 0): Promise<void> {
  const ev = (type: string, o: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...o })}\n\n`;
  const frames = [ev("message_start", { message: { id: `msg_${n}`, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 200 + n, output_tokens: 1 } } })];
  let index = 0;
  if (reply.content) {
    frames.push(ev("content_block_start", { index, content_block: { type: "text", text: "" } }));
    for (const p of pieces(reply.content)) frames.push(ev("content_block_delta", { index, delta: { type: "text_delta", text: p } }));
    frames.push(ev("content_block_stop", { index }));
    index++;
  }
  (reply.toolCalls ?? []).forEach((c, k) => {
    frames.push(ev("content_block_start", { index, content_block: { type: "tool_use", id: `toolu_${n}_${k}`, name: c.name, input: {} } }));
    frames.push(ev("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: JSON.stringify(c.arguments) } }));
    frames.push(ev("content_block_stop", { index }));
    index++;
  });
  frames.push(ev("message_delta", { delta: { stop_reason: reply.toolCalls?.length ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: 20 } }));
  frames.push(ev("message_stop", {}));
  return send(res, frames, pauseMs);
}
