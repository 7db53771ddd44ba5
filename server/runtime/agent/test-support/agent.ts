// Test support for the agent tests (not used by production code): a real layer tree in a temp dir, a real
// script runner (bubblewrap when it isolates here, else the sandbox's explicit unsafe mode: a real process
// either way), and a scripted OpenAI-compatible HTTP server on 127.0.0.1.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { makeLayerConfig, type LayerConfig } from "../../registry/layers";
import { SkillIndex } from "../../registry/skill-index";
import { createSandbox, DEFAULT_SANDBOX_GID, DEFAULT_SANDBOX_UID } from "../../sandbox/index";
import type { ScriptRunner } from "../../sandbox/types";
import { afterAll, beforeAll } from "vitest";
import { listenLocal } from "../../../test-support/listen";
import { streamAnthropic, streamOpenAi } from "./sse";
import type { AgentEvent, AgentRunOptions } from "../types";

export interface AgentWorld {
  base: string;
  home: string;
  project: string;
  scratch: string;
  config: LayerConfig;
  /** Writes <project>/.omniforge/skills/<name> with SKILL.md and files; returns the folder. */
  skill(name: string, spec: { description: string; frontmatter?: string; body: string; files?: Record<string, string> }): string;
  index(): SkillIndex;
  cleanup(): void;
}

export function makeAgentWorld(): AgentWorld {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-agent-")));
  fs.chmodSync(base, 0o755); // the sandbox user must reach the scratch below it
  const home = path.join(base, "home");
  const project = path.join(base, "project");
  const scratch = path.join(base, "scratch");
  for (const d of [home, project, scratch]) fs.mkdirSync(d, { recursive: true });
  if (process.getuid?.() === 0) fs.chownSync(scratch, DEFAULT_SANDBOX_UID, DEFAULT_SANDBOX_GID);
  const config = makeLayerConfig({ home, projectRoot: project });
  return {
    base,
    home,
    project,
    scratch,
    config,
    skill(name, spec) {
      const dir = path.join(project, ".omniforge", "skills", name);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(
        path.join(dir, "SKILL.md"),
        `---\nname: ${name}\ndescription: ${spec.description}\n${spec.frontmatter ? spec.frontmatter.trimEnd() + "\n" : ""}---\n${spec.body}`,
      );
      for (const [rel, text] of Object.entries(spec.files ?? {})) {
        fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
        fs.writeFileSync(path.join(dir, rel), text, { mode: rel.startsWith("scripts/") ? 0o755 : 0o644 });
      }
      return dir;
    },
    index: () => SkillIndex.build(config),
    cleanup: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}

/** The real sandbox when it isolates here; otherwise its explicit unsafe mode (and a visible warning). */
export async function realRunner(): Promise<{ runner: ScriptRunner; sandboxed: boolean; close(): Promise<void> }> {
  const sandbox = createSandbox();
  const st = await sandbox.status();
  if (st.mode === "sandboxed" || st.mode === "sandboxed-no-cgroup") return { runner: sandbox, sandboxed: true, close: () => sandbox.close() };
  await sandbox.close();
  console.warn(`agent tests: the sandbox is "${st.mode}" here (${st.detail}); scripts run in the sandbox's unsafe mode`);
  const unsafe = createSandbox({ unsafe: true });
  return { runner: unsafe, sandboxed: false, close: () => unsafe.close() };
}

/** realRunner() for a test file: made before its tests, closed after; read `runner` and `sandboxed` inside tests. */
export function useRealRunner(): { readonly runner: ScriptRunner; readonly sandboxed: boolean } {
  let made: Awaited<ReturnType<typeof realRunner>> | undefined;
  beforeAll(async () => {
    made = await realRunner();
  });
  afterAll(async () => {
    await made?.close();
  });
  const ready = () => {
    if (!made) throw new Error("the runner is used before its beforeAll ran");
    return made;
  };
  return {
    get runner() {
      return ready().runner;
    },
    get sandboxed() {
      return ready().sandboxed;
    },
  };
}

// ---- scripted OpenAI-compatible server ------------------------------------------------------------------

export interface ScriptedReply {
  content?: string;
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
}

export interface ChatRequestBody {
  model: string;
  messages: { role: string; content?: unknown; tool_calls?: { id: string; function: { name: string; arguments: string } }[]; tool_call_id?: string }[];
  tools?: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
  stream?: boolean;
}

/** What a recorded request told the model: its system prompt, its tool results, its tool names. */
export const systemOf = (b: ChatRequestBody) => String(b.messages.find((m) => m.role === "system")?.content ?? "");
export const toolMessages = (b: ChatRequestBody) => b.messages.filter((m) => m.role === "tool").map((m) => String(m.content));
export const toolNames = (b: ChatRequestBody) => (b.tools ?? []).map((t) => t.function.name).sort();

/** The run's events of one type, typed. */
export const ofType = <T extends AgentEvent["type"]>(events: AgentEvent[], type: T) => events.filter((e) => e.type === type) as Extract<AgentEvent, { type: T }>[];

export interface ScriptedServer {
  baseURL: string;
  /** Every body POSTed to /v1/chat/completions, in order. */
  requests: ChatRequestBody[];
  /** Authorization headers seen. */
  auth: string[];
  close(): Promise<void>;
}

/** A fake model API: a POST to a path ending in `route` has its JSON body answered; anything else is a 404. */
function fakeApi<B>(route: string, notFound: (url: string | undefined) => unknown, answer: (body: B, req: http.IncomingMessage, res: http.ServerResponse) => void): http.Server {
  return http.createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith(route)) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify(notFound(req.url)));
        return;
      }
      answer(JSON.parse(raw) as B, req, res);
    });
  });
}

/**
 * Answers /v1/chat/completions with the next scripted reply (the last one repeats). `delayMs` holds each
 * answer back (for abort tests). Anything else is a 404.
 */
export async function scriptedOpenAiServer(
  replies: ScriptedReply[] | ((body: ChatRequestBody, n: number) => ScriptedReply),
  /**
   * delayMs holds a whole answer back; chunkDelayMs pauses between the pieces of a streamed one; every answer also
   * waits for `hold` (a test releases it once what it expects to overlap has arrived, without timing anything).
   */
  opts: { delayMs?: number; chunkDelayMs?: number; hold?: Promise<unknown> } = {},
): Promise<ScriptedServer> {
  const requests: ChatRequestBody[] = [];
  const auth: string[] = [];
  const server = fakeApi<ChatRequestBody>("/chat/completions", (url) => ({ error: { message: `no route ${url}` } }), async (body, req, res) => {
    requests.push(body);
    auth.push(String(req.headers.authorization ?? ""));
    if (opts.hold) await opts.hold;
    const n = requests.length - 1;
    const reply = typeof replies === "function" ? replies(body, n) : replies[Math.min(n, replies.length - 1)]!;
    if (body.stream) {
      setTimeout(() => void streamOpenAi(res, reply, n, body.model, opts.chunkDelayMs ?? 0), opts.delayMs ?? 0);
      return;
    }
    const toolCalls = (reply.toolCalls ?? []).map((c, k) => ({
      id: `call_${n}_${k}`,
      type: "function",
      function: { name: c.name, arguments: JSON.stringify(c.arguments) },
    }));
    const payload = {
      id: `chatcmpl-${n}`,
      object: "chat.completion",
      created: 1_700_000_000 + n,
      model: body.model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: reply.content ?? null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
          finish_reason: toolCalls.length ? "tool_calls" : "stop",
        },
      ],
      usage: { prompt_tokens: 100 + n, completion_tokens: 10, total_tokens: 110 + n },
    };
    const send = () => {
      if (!res.destroyed) res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(payload));
    };
    if (opts.delayMs) setTimeout(send, opts.delayMs);
    else send();
  });
  const { url, close } = await listenLocal(server);
  return { baseURL: `${url}/v1`, requests, auth, close };
}

// ---- scripted Anthropic Messages API server -------------------------------------------------------------

export interface AnthropicRequestBody {
  model: string;
  system?: string | { type: string; text: string }[];
  messages: { role: string; content: string | { type: string; [k: string]: unknown }[] }[];
  tools?: { name: string; description?: string; input_schema?: unknown }[];
}

/** Answers POST .../messages with the next scripted reply, in the Messages API shape (tool_use blocks). */
export async function scriptedAnthropicServer(replies: ScriptedReply[]): Promise<{ baseURL: string; requests: AnthropicRequestBody[]; keys: string[]; close(): Promise<void> }> {
  const requests: AnthropicRequestBody[] = [];
  const keys: string[] = [];
  const server = fakeApi<AnthropicRequestBody>("/messages", () => ({ type: "error", error: { type: "not_found_error", message: "no route" } }), (body, req, res) => {
    requests.push(body);
    keys.push(String(req.headers["x-api-key"] ?? ""));
    const n = requests.length - 1;
    const reply = replies[Math.min(n, replies.length - 1)]!;
    if ((body as { stream?: boolean }).stream) {
      void streamAnthropic(res, reply, n, body.model);
      return;
    }
    const content = [
      ...(reply.content ? [{ type: "text", text: reply.content }] : []),
      ...(reply.toolCalls ?? []).map((c, k) => ({ type: "tool_use", id: `toolu_${n}_${k}`, name: c.name, input: c.arguments })),
    ];
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        id: `msg_${n}`,
        type: "message",
        role: "assistant",
        model: body.model,
        content,
        stop_reason: reply.toolCalls?.length ? "tool_use" : "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 200 + n, output_tokens: 20 },
      }),
    );
  });
  const { url, close } = await listenLocal(server);
  return { baseURL: `${url}/v1`, requests, keys, close };
}

// ---- the bed of a test file that runs the loop against scripted servers -----------------------------------

export interface ScriptedAgentBed {
  readonly world: AgentWorld;
  readonly runner: ScriptRunner;
  /** A scripted OpenAI-compatible server, closed after the file's tests. */
  server(replies: Parameters<typeof scriptedOpenAiServer>[0], opts?: Parameters<typeof scriptedOpenAiServer>[1]): Promise<ScriptedServer>;
  /** What every run of the file shares: the world's catalog and scratch folder, and the runner. */
  runs(): Pick<AgentRunOptions, "skills" | "runner" | "scratchDir">;
}

/**
 * Registers the file's beforeAll and afterAll: a world with the skills `setup` writes, the real runner (sandboxed
 * where it can be), and every server made through `server` closed after the tests.
 */
export function scriptedAgentBed(setup: (world: AgentWorld) => void): ScriptedAgentBed {
  let world: AgentWorld | undefined;
  let runner: { runner: ScriptRunner; close(): Promise<void> } | undefined;
  const servers: ScriptedServer[] = [];
  beforeAll(async () => {
    world = makeAgentWorld();
    setup(world);
    runner = await realRunner();
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await runner?.close();
    world?.cleanup();
  });
  const bed: ScriptedAgentBed = {
    get world() {
      if (!world) throw new Error("the agent test bed is used before its beforeAll ran");
      return world;
    },
    get runner() {
      if (!runner) throw new Error("the agent test bed is used before its beforeAll ran");
      return runner.runner;
    },
    async server(replies, opts) {
      const s = await scriptedOpenAiServer(replies, opts);
      servers.push(s);
      return s;
    },
    runs: () => ({ skills: { index: bed.world.index() }, runner: bed.runner, scratchDir: bed.world.scratch }),
  };
  return bed;
}
