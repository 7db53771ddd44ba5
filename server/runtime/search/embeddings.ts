// Meaning beside words (issue 36, optional): vectors from an OpenAI-compatible `POST <url>/embeddings` (OpenAI,
// Ollama, vLLM, LM Studio), kept per SKILL.md digest in the data home so an unchanged skill is never embedded again.
// Off unless OMNIFORGE_EMBEDDINGS_URL and OMNIFORGE_EMBEDDINGS_MODEL are set; the offline ranking stays lexical.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export interface EmbeddingsConfig {
  /** The OpenAI-compatible base URL, e.g. http://127.0.0.1:11434/v1 (requests go to <url>/embeddings). */
  url: string;
  model: string;
  key?: string;
  /** The longest one call may take. */
  timeoutMs?: number;
}

export type EmbeddingsErrorCode = "embeddings.timeout" | "embeddings.http" | "embeddings.response" | "embeddings.dimension";

export class EmbeddingsError extends Error {
  constructor(
    readonly code: EmbeddingsErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const DEFAULT_TIMEOUT_MS = 15_000;
/** Inputs per call (servers cap a batch; 64 suits OpenAI, Ollama and vLLM alike). */
const BATCH = 64;
/** Characters of one input sent (a request or a skill's name and description). */
const MAX_INPUT_CHARS = 4000;
/** Largest response read (64 inputs of a few thousand dimensions). */
const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** The embeddings of `inputs`, in order, all of one dimension. */
export async function embed(cfg: EmbeddingsConfig, inputs: string[]): Promise<number[][]> {
  const out: number[][] = [];
  for (let i = 0; i < inputs.length; i += BATCH) out.push(...(await embedBatch(cfg, inputs.slice(i, i + BATCH))));
  const dims = out[0]?.length ?? 0;
  if (out.some((v) => v.length !== dims)) throw new EmbeddingsError("embeddings.dimension", `the server returned vectors of different dimensions (${dims} and others)`);
  return out;
}

/**
 * A kept-alive connection the server closed while this process was busy (a long index build holds the thread past
 * the server's idle timeout) fails the next request on it at once. Embedding is idempotent, so such a request is sent
 * again once, on a new connection, before it counts as an outage.
 */
const STALE_CONNECTION = new Set(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE", "UND_ERR_CLOSED"]);

async function embedBatch(cfg: EmbeddingsConfig, inputs: string[]): Promise<number[][]> {
  const timeoutMs = cfg.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  let res: Response | undefined;
  let text = "";
  for (let attempt = 1; !res; attempt++) {
    try {
      res = await fetch(`${cfg.url.replace(/\/+$/, "")}/embeddings`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(cfg.key ? { authorization: `Bearer ${cfg.key}` } : {}) },
        body: JSON.stringify({ model: cfg.model, input: inputs.map((s) => s.slice(0, MAX_INPUT_CHARS)) }),
        signal,
        redirect: "error",
      });
      text = await res.text();
    } catch (e) {
      const err = e as Error;
      if (err.name === "TimeoutError" || err.name === "AbortError") throw new EmbeddingsError("embeddings.timeout", `no answer within ${Math.round(timeoutMs / 1000)} s`);
      // fetch says only "fetch failed"; its cause names what failed (ECONNREFUSED, a closed socket, a bad address).
      const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
      const code = typeof cause?.code === "string" ? cause.code : "";
      if (attempt === 1 && STALE_CONNECTION.has(code)) {
        res = undefined;
        continue;
      }
      const why = code || (typeof cause?.message === "string" ? cause.message : "");
      throw new EmbeddingsError("embeddings.http", `the request failed: ${err.message}${why ? ` (${why})` : ""}`);
    }
  }
  if (!res.ok) throw new EmbeddingsError("embeddings.http", `the server answered ${res.status}`);
  if (text.length > MAX_RESPONSE_BYTES) throw new EmbeddingsError("embeddings.response", "the answer is too large");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new EmbeddingsError("embeddings.response", "the answer is not JSON");
  }
  const data = (body as { data?: unknown }).data;
  if (!Array.isArray(data) || data.length !== inputs.length) throw new EmbeddingsError("embeddings.response", `expected ${inputs.length} embeddings in "data"`);
  const vectors: number[][] = new Array(inputs.length);
  data.forEach((d: { index?: unknown; embedding?: unknown }, i) => {
    const at = typeof d?.index === "number" && Number.isInteger(d.index) && d.index >= 0 && d.index < inputs.length ? d.index : i;
    const v = d?.embedding;
    if (!Array.isArray(v) || !v.length || !v.every((x) => typeof x === "number" && Number.isFinite(x))) throw new EmbeddingsError("embeddings.response", "an embedding is not a list of numbers");
    vectors[at] = v as number[];
  });
  if (vectors.some((v) => !v)) throw new EmbeddingsError("embeddings.response", "two embeddings claim the same index");
  return vectors;
}

interface StoredVectors {
  model: string;
  url: string;
  dims: number;
  /** By SKILL.md digest. */
  vectors: Record<string, number[]>;
  /** The digest each skill (by id) was last embedded under: a changed skill's old vector goes when its new one comes. */
  owners?: Record<string, string>;
}

/**
 * The vectors of one endpoint and model, by SKILL.md digest, in <home>/embeddings/ (private to the user). A vector
 * of another dimension than the store's means the model changed behind its name: the store starts over. Several
 * processes share the file (the console, its turn workers, the CLI): each write merges what another one wrote
 * since this one read it, so no process embeds again what another has kept.
 */
export class VectorStore {
  private data: StoredVectors;
  readonly file: string;

  constructor(
    home: string,
    private readonly cfg: Pick<EmbeddingsConfig, "url" | "model">,
  ) {
    const id = crypto.createHash("sha256").update(`${cfg.url}\u0000${cfg.model}`).digest("hex").slice(0, 24);
    this.file = path.join(home, "embeddings", `${id}.json`);
    this.data = this.read() ?? { model: cfg.model, url: cfg.url, dims: 0, vectors: {}, owners: {} };
  }

  /** What the file holds now, or nothing (none yet, damaged, or another endpoint's). */
  private read(): StoredVectors | null {
    try {
      const raw = JSON.parse(fs.readFileSync(this.file, "utf8")) as StoredVectors;
      if (raw && raw.model === this.cfg.model && raw.url === this.cfg.url && typeof raw.vectors === "object" && raw.vectors) return { ...raw, owners: raw.owners ?? {} };
    } catch {
      // none yet, or damaged: vectors are computed again
    }
    return null;
  }

  get dims(): number {
    return this.data.dims;
  }

  get(digest: string): number[] | undefined {
    return Object.hasOwn(this.data.vectors, digest) ? this.data.vectors[digest] : undefined;
  }

  /** Keeps `vector` for `digest`; the vector skill `id` had under an older digest is dropped. */
  set(digest: string, vector: number[], id: string): void {
    if (this.data.dims && vector.length !== this.data.dims) this.data = { ...this.data, dims: 0, vectors: {}, owners: {} };
    this.data.dims = vector.length;
    const owners = (this.data.owners ??= {});
    const old = Object.hasOwn(owners, id) ? owners[id] : undefined;
    if (old && old !== digest) delete this.data.vectors[old];
    owners[id] = digest;
    this.data.vectors[digest] = vector;
  }

  /**
   * Takes in what another process kept since this one read the file (skills this one has no vector for), so a
   * long-lived process (the console) does not embed what a CLI run just embedded.
   */
  refresh(): void {
    const disk = this.read();
    if (!disk || (this.data.dims && disk.dims !== this.data.dims)) return;
    this.data.dims = disk.dims;
    const owners = (this.data.owners ??= {});
    for (const [id, digest] of Object.entries(disk.owners ?? {})) {
      if (Object.hasOwn(owners, id) || !Object.hasOwn(disk.vectors, digest)) continue;
      owners[id] = digest;
      this.data.vectors[digest] = disk.vectors[digest]!;
    }
  }

  /** Drops every kept vector, here and in the file: the model behind the endpoint's name changed (its dimension did). */
  forget(): void {
    this.data = { model: this.cfg.model, url: this.cfg.url, dims: 0, vectors: {}, owners: {} };
    this.write();
  }

  /** Writes the store (atomically, private), with what another process kept meanwhile merged in. */
  save(): void {
    this.refresh();
    this.write();
  }

  private write(): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(this.data), { mode: 0o600 });
    fs.renameSync(tmp, this.file);
  }
}

export function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
