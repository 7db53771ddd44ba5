// A deterministic OpenAI-compatible embeddings endpoint on 127.0.0.1 for the search bench when none is configured:
// each text's vector is its words hashed into a fixed number of buckets. No model: it exists to time the hybrid
// path (embedding the catalog once, a request per search, fusion, the vector store), never to measure quality.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

const DIMS = 256;

function vectorOf(text: string): number[] {
  const v = new Array<number>(DIMS).fill(0);
  for (const w of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) v[crypto.createHash("md5").update(w).digest().readUInt16LE(0) % DIMS]! += 1;
  return v;
}

export async function hashedEmbeddings(): Promise<{ url: string; calls: number[]; close(): Promise<void> }> {
  const calls: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/embeddings") return void res.writeHead(404).end();
      const input = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { input: string[] }).input;
      calls.push(input.length);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: input.map((t, index) => ({ object: "embedding", index, embedding: vectorOf(t) })) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, calls, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
