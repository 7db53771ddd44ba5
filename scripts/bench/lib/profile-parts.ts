// A V8 CPU profile (`node --cpu-prof`'s .cpuprofile) read as the parts of a playground turn: each sample's time is
// credited to every part one of its stack's frames belongs to (inclusive, so the parts overlap: an audit write's
// driver time is also "database driver"), plus the files that take the most time themselves (self time).
import fs from "node:fs";
import { SourceMap } from "node:module";
import { fileURLToPath } from "node:url";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber?: number; columnNumber?: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Now on the clock V8's profiler stamps samples with (the monotonic clock, in microseconds), for `window`. */
export const profilerClockUs = () => Number(process.hrtime.bigint() / 1000n);

/** A part of a turn: frames whose file (and, when given, function) match. */
export interface Part {
  label: string;
  file: RegExp;
  fn?: RegExp;
}

/** The parts of a turn, by where their code lives (server/services/playground and the runtime around it). */
export const TURN_PARTS: Part[] = [
  { label: "session and history (playground/sessions.ts, active-skills.ts)", file: /playground\/(sessions|active-skills)\.ts$/ },
  { label: "turn setup, streaming and end (playground/turns.ts, turn-pool.ts)", file: /playground\/(turns|turn-pool)\.ts$/ },
  { label: "history page (playground/history.ts)", file: /playground\/history\.ts$/ },
  { label: "skill set (resolution for the session)", file: /playground\/scope\.ts$/ },
  { label: "listing (runtime/agent/listing, routing)", file: /runtime\/agent\/(listing|routing)\.ts$/ },
  { label: "ranking (runtime/search)", file: /runtime\/search\// },
  { label: "agent loop (runtime/agent)", file: /runtime\/agent\// },
  { label: "sandbox and scripts (runtime/sandbox)", file: /runtime\/sandbox\// },
  { label: "audit (services/audit)", file: /services\/audit\// },
  { label: "claims and stops (turn-claims.ts, services/stops)", file: /playground\/turn-claims\.ts$|services\/stops\// },
  { label: "signed-in session check (auth)", file: /services\/auth\/|server\/auth\.ts$/ },
  { label: "tRPC and HTTP (server/api, server/http, @trpc)", file: /server\/(api|http)\/|node_modules\/@trpc\// },
  { label: "index poll (catalog.ts, runtime/registry)", file: /services\/catalog\/catalog\.ts$|runtime\/registry\// },
  { label: "database driver (drizzle, pg)", file: /node_modules\/(drizzle-orm|pg|pg-protocol|pg-pool)\// },
  { label: "garbage collection", file: /^$/, fn: /^\(garbage collector\)$/ },
  { label: "idle", file: /^$/, fn: /^\(idle\)$/ },
];

/**
 * The source file a frame's code came from: the console's server code is bundled into .next/server/chunks (its own
 * names minified), so a frame there is looked up in the chunk's source map; other frames keep their own file.
 */
function sourceResolver() {
  const maps = new Map<string, SourceMap | null>();
  const mapOf = (url: string): SourceMap | null => {
    if (maps.has(url)) return maps.get(url)!;
    let map: SourceMap | null = null;
    try {
      const file = url.startsWith("file:") ? fileURLToPath(url) : url;
      if (file.includes("/.next/") && fs.existsSync(`${file}.map`)) map = new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, "utf8")));
    } catch {
      map = null;
    }
    maps.set(url, map);
    return map;
  };
  return (f: ProfileNode["callFrame"]): { url: string; functionName: string } => {
    const map = f.url ? mapOf(f.url) : null;
    if (!map || f.lineNumber === undefined || f.lineNumber < 0) return f;
    const entry = map.findEntry(f.lineNumber, f.columnNumber ?? 0) as { originalSource?: string; name?: string };
    return entry.originalSource ? { url: entry.originalSource, functionName: entry.name ?? f.functionName } : f;
  };
}

/**
 * Milliseconds per part (inclusive) and the files with the most self time, for one profile file, counting only the
 * samples taken within `window` (profilerClockUs values, so start-up and warm-up stay out).
 */
export function profileParts(file: string, window: { from: number; to: number }, parts: Part[] = TURN_PARTS, topFiles = 8) {
  const p = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
  const source = sourceResolver();
  const byId = new Map(p.nodes.map((n) => [n.id, { ...n, callFrame: source(n.callFrame) }]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Each node's parts, from its own frame and its parent's (computed once per node, root first by memo).
  const memo = new Map<number, Set<number>>();
  const partsOf = (id: number): Set<number> => {
    const known = memo.get(id);
    if (known) return known;
    const chain: number[] = [];
    let at: number | undefined = id;
    while (at !== undefined && !memo.has(at)) {
      chain.push(at);
      at = parent.get(at);
    }
    let acc = at === undefined ? new Set<number>() : memo.get(at)!;
    for (const nodeId of chain.reverse()) {
      const f = byId.get(nodeId)!.callFrame;
      const own = parts.flatMap((part, i) => (part.file.test(f.url) && (!part.fn || part.fn.test(f.functionName)) ? [i] : []));
      acc = own.some((i) => !acc.has(i)) ? new Set([...acc, ...own]) : acc;
      memo.set(nodeId, acc);
    }
    return memo.get(id)!;
  };
  const partMs = parts.map(() => 0);
  const selfByFile = new Map<string, number>();
  let total = 0;
  let at = p.startTime;
  p.samples.forEach((id, i) => {
    at += p.timeDeltas[i] ?? 0;
    if (at < window.from || at > window.to) return;
    const ms = (p.timeDeltas[i] ?? 0) / 1000;
    total += ms;
    for (const part of partsOf(id)) partMs[part]! += ms;
    const f = byId.get(id)!.callFrame;
    const where = f.url ? f.url.replace(/^.*?\/(node_modules\/(?:@[^/]+\/)?[^/]+|server\/|db\/|scripts\/|\.next\/)/, "$1") : f.functionName;
    selfByFile.set(where, (selfByFile.get(where) ?? 0) + ms);
  });
  const idle = parts.findIndex((part) => part.label === "idle");
  return {
    sampledMs: Math.round(total),
    busyMs: Math.round(total - (idle >= 0 ? partMs[idle]! : 0)),
    parts: Object.fromEntries(parts.map((part, i) => [part.label, Math.round(partMs[i]!)])),
    selfMsByFile: [...selfByFile].filter(([w]) => w !== "(idle)").sort((a, b) => b[1] - a[1]).slice(0, topFiles).map(([w, ms]) => ({ where: w, ms: Math.round(ms) })),
  };
}
