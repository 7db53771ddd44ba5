// The load mix of issue 15, shared by the one-server bench (load.ts) and the two-server one (servers.ts): people
// browsing the skill list, skill details and the audit (and health now and then) with no pause, and people chatting
// in the playground with the offline provider, each following a turn as the page does. And the figures of a round.
import { Client, Recorder } from "./load-client";

export const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN);
export const r1 = (x: number) => Math.round(x * 10) / 10;

export interface SkillRowLite {
  ref: unknown;
  name: string;
}

/**
 * One round of the mix; returns per-procedure latencies. A person whose request failed waits `backoffMs` before the
 * next (0 by default: the one-server bench counts errors that should not happen; the two-server bench kills a server
 * on purpose, and its clients would otherwise spin on refused connections).
 */
export async function mix(browsers: Client[], chatters: Client[], seconds: number, opts: { backoffMs?: number } = {}) {
  const rec = new Recorder();
  const until = Date.now() + seconds * 1000;
  const backoff = () => (opts.backoffMs ? new Promise((r) => setTimeout(r, opts.backoffMs)) : undefined);
  const queries = ["", "", "", "test", "review", "python", "deploy"];
  let known: SkillRowLite[] = [];
  const browse = async (c: Client, i: number) => {
    let n = i;
    while (Date.now() < until) {
      const failedBefore = rec.failed;
      n++;
      const step = n % 4;
      if (step === 0 || !known.length) {
        const q = queries[n % queries.length];
        const page = await rec.time("skill.list", () => c.query<{ rows: SkillRowLite[] }>("skill.list", { ...(q ? { q } : {}), offset: (n % 5) * 100, limit: 100 }, !q));
        if (page?.rows.length && !q) known = page.rows;
      } else if (step === 1 || step === 2) {
        const row = known[n % known.length]!;
        await rec.time("skill.info", () => c.query("skill.info", { ref: row.ref }, false));
      } else {
        await rec.time("audit.list", () => c.query("audit.list", {}, false));
      }
      if (n % 5 === 0) await rec.time("health", () => c.health());
      if (rec.failed > failedBefore) await backoff();
    }
  };
  const chat = async (c: Client, i: number) => {
    let session: { id: string } | undefined;
    while (!session) {
      session = await rec.time("playground.create", () => c.mutate<{ id: string }>("playground.create", { title: `load ${i}`, provider: "offline" }));
      if (!session && (!opts.backoffMs || Date.now() >= until)) return;
      if (!session) await backoff();
    }
    let k = 0;
    while (Date.now() < until) {
      k++;
      const t0 = performance.now();
      const sent = await rec.time("playground.send", async () => {
        await c.mutate("playground.send", { sessionId: session.id, request: `Review this pull request and write tests for the change (${k})` }, false);
        return true;
      });
      if (!sent) {
        if (!opts.backoffMs) break;
        await backoff();
        continue;
      }
      // As the page: follow the turn's events as they stream, then read the session and the session list once.
      await c.follow(session.id, until + 30_000).catch((e: Error) => rec.errors.set("playground.follow", [...(rec.errors.get("playground.follow") ?? []), e.message]));
      const history = await rec.time("playground.get", () => c.query<{ messages: { record?: { reason: string; error?: string } }[] }>("playground.get", { sessionId: session.id }));
      await rec.time("playground.list", () => c.query("playground.list", {}, false));
      // A turn that ended in an error (a turn worker that could not start) costs next to nothing: counted as an
      // error of its own, so a broken run cannot pass for a fast one.
      const record = history?.messages.findLast((m) => m.record)?.record;
      if (history && record?.reason === "error") {
        rec.errors.set("turn (send to done)", [...(rec.errors.get("turn (send to done)") ?? []), `turn ended in an error: ${record.error ?? "?"}`]);
        continue;
      }
      const list = rec.times.get("turn (send to done)") ?? [];
      list.push(performance.now() - t0);
      rec.times.set("turn (send to done)", list);
    }
  };
  const t0 = performance.now();
  await Promise.all([...browsers.map(browse), ...chatters.map(chat)]);
  const elapsed = (performance.now() - t0) / 1000;
  return { rec, elapsed };
}

export interface ProcedureFigures {
  rps: number;
  p50: number;
  p99: number;
  n: number;
  errors: number;
}

/** Each procedure's requests/s, p50 and p99 (ms), count and errors; `all` counts every request but the turns. */
export function summarize(rec: Recorder, elapsed: number): { perProcedure: Record<string, ProcedureFigures>; all: number; firstErrors: string[] } {
  const perProcedure: Record<string, ProcedureFigures> = {};
  const firstErrors: string[] = [];
  let all = 0;
  for (const label of new Set([...rec.times.keys(), ...rec.errors.keys()])) {
    const t = [...(rec.times.get(label) ?? [])].sort((a, b) => a - b);
    const errors = rec.errors.get(label) ?? [];
    firstErrors.push(...errors.slice(0, 2).map((e) => `${label}: ${e}`));
    if (!label.startsWith("turn")) all += t.length + errors.length;
    perProcedure[label] = { rps: r1(t.length / elapsed), p50: r1(pct(t, 50)), p99: r1(pct(t, 99)), n: t.length, errors: errors.length };
  }
  return { perProcedure, all, firstErrors };
}
