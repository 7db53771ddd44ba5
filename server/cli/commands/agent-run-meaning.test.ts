// `omniforge agent run --provider offline` with an embeddings endpoint configured (issue 36, optional), as a person
// runs it: the real bin against a scripted embeddings server on 127.0.0.1. The run routes with words and meaning
// fused, each skill is embedded once for the data home whatever process asks, and a failing endpoint is said in the
// run's steps while words alone choose.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { makeAgentWorld, type AgentWorld } from "../../runtime/agent/test-support/agent";
import { scriptedEmbeddings, type EmbeddingsServer } from "../../runtime/search/test-support/search";
import type { AgentEvent } from "../../runtime/agent/types";

const repo = path.resolve(import.meta.dirname, "../../..");
const REQUEST = "check whether the peptides I ordered stick to the target of our designs";
let w: AgentWorld;
let server: EmbeddingsServer;

/** The bin as a child this process waits for without blocking (the embeddings server of this process answers it). */
function omniforge(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const env = { ...process.env, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "", OMNIFORGE_PROVIDER: "", OMNIFORGE_EMBEDDINGS_URL: server.url, OMNIFORGE_EMBEDDINGS_MODEL: "scripted-1" };
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "agent", "run", REQUEST, ...args, "--home", w.home, "--project", w.project], { cwd: repo, encoding: "utf8", env, timeout: 90_000 }, (error, out, err) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
}

beforeAll(async () => {
  w = makeAgentWorld();
  w.skill("wetlab-assays", { description: "Order binding assays for antibodies from a partner laboratory.", body: "# Assays\n" });
  w.skill("latency-tuner", { description: "Bring down the p99 of web services under load.", body: "# Latency\n" });
  w.skill("poem-writer", { description: "Write short poems and haiku for any occasion.", body: "# Poems\n" });
  w.skill("design-notes", { description: "Write design notes for the target architecture of an invoice, billing and payment system.", body: "# Design\n" });
  server = await scriptedEmbeddings();
});
afterAll(async () => {
  await server?.close();
  w?.cleanup();
});

it("activates the skill words and meaning rank first, embedding the skills once for the data home across processes", async () => {
  const first = await omniforge(["--provider", "offline", "--json"]);
  expect(first.code).toBe(0);
  const events = first.out.trim().split("\n").map((l) => JSON.parse(l) as AgentEvent);
  expect(events.filter((e) => e.type === "skill_activated").map((e) => (e as { skill: string }).skill)).toEqual(["wetlab-assays"]);
  expect(server.calls).toEqual([4, 1]); // the four skills, then the request
  expect(fs.readdirSync(path.join(w.home, "embeddings"))).toHaveLength(1);
  server.calls.length = 0;
  const second = await omniforge(["--provider", "offline", "--json"]);
  expect(second.code).toBe(0);
  expect(server.calls).toEqual([1]); // another process: only the request is embedded
});

it("with the endpoint failing, words alone choose and the run's steps say why", async () => {
  server.mode = "error";
  try {
    const r = await omniforge(["--provider", "offline"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("routing: the embeddings endpoint failed (embeddings.http: the server answered 500): ranked by words only until it answers again (tried again in 30 s, then less often while it fails)");
    expect(r.out).toMatch(/\+ activated 'design-notes'/);
  } finally {
    server.mode = "ok";
  }
});
