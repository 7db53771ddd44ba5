// A scripted OpenAI-compatible embeddings server on 127.0.0.1 for tests: deterministic vectors (one axis per
// concept, counted by word stems the text contains), and the failures a real endpoint has (an error status, no
// answer, a vector of another dimension). Test support only.
import http from "node:http";
import { listenLocal } from "../../../test-support/listen";

/** Each concept is an axis; a text's vector counts the stems of each it contains (plus a small constant). */
export const CONCEPTS = [
  ["protein", "peptide", "antibod", "assay", "binding", "bind", "stick", "laborator", "wet lab"],
  ["latency", "slow", "p99", "tail", "speed"],
  ["poem", "verse", "rhyme", "haiku"],
  ["invoice", "bill", "payment"],
];

export function vectorOf(text: string, dims = CONCEPTS.length): number[] {
  const t = text.toLowerCase();
  return Array.from({ length: dims }, (_, i) => 0.01 + (CONCEPTS[i] ?? []).filter((w) => t.includes(w)).length);
}

/**
 * `other-model`: every vector one dimension shorter, as when another model is served under the same name.
 * `drop-once`: the next request's connection is closed without an answer (a kept-alive socket the server let go),
 * then "ok" again.
 */
export type ServerMode = "ok" | "error" | "hang" | "short-request-vectors" | "other-model" | "drop-once";

export interface EmbeddingsServer {
  url: string;
  /** Inputs per call received, in order. */
  calls: number[];
  mode: ServerMode;
  close(): Promise<void>;
}

export async function scriptedEmbeddings(): Promise<EmbeddingsServer> {
  const state = { calls: [] as number[], mode: "ok" as ServerMode };
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/embeddings") return void res.writeHead(404).end();
      const input = (JSON.parse(body) as { input: string[] }).input;
      state.calls.push(input.length);
      if (state.mode === "hang") return; // never answers: the client's timeout ends the wait
      if (state.mode === "drop-once") {
        state.mode = "ok";
        return void req.socket.destroy();
      }
      if (state.mode === "error") return void res.writeHead(500, { "content-type": "application/json" }).end('{"error":"model not loaded"}');
      // A single input is the request: in this mode its vector has one dimension less than the skills'.
      const dims = state.mode === "other-model" || (state.mode === "short-request-vectors" && input.length === 1) ? CONCEPTS.length - 1 : CONCEPTS.length;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: input.map((t, index) => ({ object: "embedding", index, embedding: vectorOf(t, dims) })) }));
    });
  });
  const { url, close } = await listenLocal(server);
  return {
    url: `${url}/v1`,
    calls: state.calls,
    get mode() {
      return state.mode;
    },
    set mode(m: ServerMode) {
      state.mode = m;
    },
    close,
  };
}
