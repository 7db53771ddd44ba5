// Measuring the ranking on a request set: requests as users type them, each with the skill folder that should
// serve it (relative to the catalog root) or null when no skill does. Used by the unit tests (which assert the
// figures), `npm run bench`, and the library comparison in the README.
import fs from "node:fs";
import path from "node:path";

export interface RequestCase {
  id: string;
  request: string;
  /** Skill folder relative to the catalog root; null: no skill serves the request. */
  expect: string | null;
  /** "holdout" requests were not looked at while tuning weights and thresholds. */
  split: "tune" | "holdout";
}

export const REQUESTS_FILE = path.join(import.meta.dirname, "requests.jsonl");

export function loadRequests(file = REQUESTS_FILE): RequestCase[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as RequestCase);
}

/** What a ranker answers for one request: skill folders (absolute), best first, and whether it abstains. */
export interface RankAnswer {
  dirs: string[];
  abstain: boolean;
  /** Folders the listing for this request carries with a description (when measured). */
  withDescription?: string[];
}

export interface Metrics {
  requests: number;
  /** Requests some skill serves. */
  single: number;
  /** The expected skill ranked first (whether or not the search abstained). */
  top1: number;
  top3: number;
  /** The expected skill ranked first and the search did not abstain (what the offline provider activates). */
  answered: number;
  /** Share of served requests whose skill the listing carries with its description (when measured). */
  listed?: number;
  /** Requests no skill serves. */
  none: number;
  /** Share of abstentions that were right (the request really had no skill). 1 when it never abstained. */
  abstainPrecision: number;
  /** Share of no-skill requests it abstained on. */
  abstainRecall: number;
  /** Served requests it wrongly abstained on. */
  wrongAbstain: number;
  misses: { id: string; request: string; expect: string | null; got: string | null; abstain: boolean }[];
}

const ratio = (a: number, b: number) => (b ? Math.round((a / b) * 10_000) / 10_000 : 1);

/** top1/top3 judge the ranking; `answered` also counts abstaining on a served request as a miss. */
export function measure(cases: RequestCase[], root: string, rank: (request: string) => RankAnswer): Metrics {
  let single = 0;
  let top1 = 0;
  let top3 = 0;
  let answered = 0;
  let listed = 0;
  let listedKnown = false;
  let none = 0;
  let abstained = 0;
  let abstainedRight = 0;
  let wrongAbstain = 0;
  const misses: Metrics["misses"] = [];
  for (const c of cases) {
    const a = rank(c.request);
    const rel = (d: string | undefined) => (d ? path.relative(root, d) : null);
    if (a.abstain) abstained++;
    if (c.expect === null) {
      none++;
      if (a.abstain) abstainedRight++;
      else misses.push({ id: c.id, request: c.request, expect: null, got: rel(a.dirs[0]), abstain: false });
      continue;
    }
    single++;
    const want = path.join(root, c.expect);
    if (a.withDescription) {
      listedKnown = true;
      if (a.withDescription.includes(want)) listed++;
    }
    const at = a.dirs.indexOf(want);
    if (a.abstain) wrongAbstain++;
    if (at === 0) top1++;
    if (at === 0 && !a.abstain) answered++;
    else misses.push({ id: c.id, request: c.request, expect: c.expect, got: rel(a.dirs[0]), abstain: a.abstain });
    if (at >= 0 && at < 3) top3++;
  }
  return {
    requests: cases.length,
    single,
    top1: ratio(top1, single),
    top3: ratio(top3, single),
    answered: ratio(answered, single),
    ...(listedKnown ? { listed: ratio(listed, single) } : {}),
    none,
    abstainPrecision: ratio(abstainedRight, abstained),
    abstainRecall: ratio(abstainedRight, none),
    wrongAbstain,
    misses,
  };
}
