// "Suggest a better description": skill-creator's loop, inside the real catalog. The set is split 60/40 into train
// and test (stratified, deterministic); the model sees the current description and the train queries it gets wrong
// and proposes a new one; each proposal is scored by running the set with the skill's description replaced in the
// catalog; the best by test score (then train score, then shorter) wins after at most K iterations. Nothing is
// written: the caller shows the diff and the author applies it. With the offline provider as the writer the
// proposals are the failing queries' own words that the skill's text supports (./offline-proposal.ts), judged the
// same way. Either way the result shows where the one ranking puts the skill for each failing query, before and
// after.
import { FORMAT_LIMITS } from "../../domain/vocabulary";
import { RANKED_KEEP, router } from "../agent/routing";
import { effectiveSkills, loadSkill } from "../agent/skill-source";
import type { AgentSkillSource, DisclosureMode, ModelProvider } from "../agent/types";
import type { SkillEntry } from "../registry/types";
import { nameWords } from "../search/text";
import type { TriggerCase } from "./format";
import { wordsProposal } from "./offline-proposal";
import { runTriggerEval, type QueryResult } from "./run";

export const DEFAULT_ITERATIONS = 3;
export const MAX_ITERATIONS = 6;

export interface Candidate {
  description: string;
  train: number;
  test: number;
  /** Which iteration proposed it (0: the current description). */
  iteration: number;
}

export interface Suggestion {
  before: Candidate;
  best: Candidate;
  tried: Candidate[];
  split: { train: number; test: number };
  /** The best is the current description: no proposal beat it on the test queries. */
  unchanged: boolean;
  /** Who wrote the proposals: a model, or the failing queries' words (the offline provider). */
  proposedBy: "model" | "words";
  /** The queries the current description gets wrong: the skill's place in the one ranking (1 = first, null = not ranked) with it and with the best. */
  rankings: QueryRanking[];
  /** Proposed from words: what was added, and the failing queries' words the skill's text does not have (for a person or a model to judge). */
  words?: { added: string[]; unsupported: string[] };
}

export interface QueryRanking {
  query: string;
  should_trigger: boolean;
  before: Place;
  after: Place;
}

/** The skill's place in the one ranking for a query: 1-based (null: not ranked), and whether it is the pick. */
export interface Place {
  place: number | null;
  /** Its hit's confidence, 0..1 (null when not ranked). */
  confidence: number | null;
  /** First and the ranking did not abstain: what the offline provider activates. */
  chosen: boolean;
}

export interface SuggestOptions {
  skill: string;
  cases: readonly TriggerCase[];
  skills: AgentSkillSource;
  /** Runs the set (the model provider under test). */
  provider: ModelProvider;
  /** Writes the proposals (often the same provider). */
  writer?: ModelProvider;
  mode: DisclosureMode;
  runs?: number;
  iterations?: number;
  scratchDir: string;
  signal?: AbortSignal;
  onProgress?: (c: Candidate) => void;
}

/** 60/40 per class, every 5th-and-3rd-of-5 to test, so both halves hold both kinds of queries. */
export function splitCases<T extends { should_trigger: boolean }>(cases: readonly T[]): { train: T[]; test: T[] } {
  const train: T[] = [];
  const test: T[] = [];
  for (const kind of [true, false]) {
    cases.filter((c) => c.should_trigger === kind).forEach((c, i) => (i % 5 === 1 || i % 5 === 3 ? test : train).push(c));
  }
  return { train, test };
}

const score = (results: QueryResult[]) => (results.length ? Math.round((results.filter((r) => r.passed).length / results.length) * 1000) / 1000 : 0);

function better(a: Candidate, b: Candidate): boolean {
  return a.test > b.test || (a.test === b.test && (a.train > b.train || (a.train === b.train && a.description.length < b.description.length)));
}

/** The model's answer, cleaned to one description line within the format's limit (quotes and labels removed). */
export function cleanProposal(text: string): string | null {
  const tagged = /<description>([\s\S]*?)<\/description>/i.exec(text)?.[1] ?? text;
  const one = tagged
    .replace(/^\s*(new )?description\s*:\s*/i, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^["'`]+|["'`]+$/g, "")
    .trim();
  if (!one || one.length > FORMAT_LIMITS.descriptionChars || /[<>]/.test(one)) return null;
  return one;
}

function prompt(skill: string, description: string, misses: QueryResult[]): string {
  const lines = misses.map((m) => `- ${m.should_trigger ? "SHOULD use the skill" : "should NOT use the skill"}: "${m.query}"${m.chosen.length ? ` (chosen instead: ${m.chosen.join(", ")})` : ""}`);
  return [
    `An agent picks skills from a catalog by their descriptions. The skill "${skill}" is described as:`,
    "",
    description,
    "",
    "With this description the agent gets these requests wrong:",
    ...lines,
    "",
    `Write a better description for "${skill}": what it does and when to use it, in plain words a request would use, under ${FORMAT_LIMITS.descriptionChars} characters, without angle brackets. Answer with the description only, inside <description></description>.`,
  ].join("\n");
}

/** The skill's text the words of a proposal must come from: its name, tags and body. */
function skillText(entry: SkillEntry): string {
  let body = "";
  try {
    body = loadSkill(entry).body;
  } catch {
    // Resolved as loadable a moment ago; if it no longer loads, its name and tags are all it says.
  }
  return [nameWords(entry.name), ...entry.tags, body].join("\n");
}

/** Where the one ranking puts the skill for each query when its description is `description`. */
function placesFor(base: SkillEntry[], target: SkillEntry, description: string, queries: readonly string[]): Place[] {
  const entries = base.map((e) => (e === target ? { ...e, description } : e));
  const { search } = router(entries, entries);
  return queries.map((q) => {
    const r = search(q, { limit: RANKED_KEEP });
    const i = r.hits.findIndex((h) => h.name === target.name);
    return i < 0 ? { place: null, confidence: null, chosen: false } : { place: i + 1, confidence: Math.round(r.hits[i]!.confidence * 100) / 100, chosen: i === 0 && !r.abstain };
  });
}

export async function suggestDescription(opts: SuggestOptions): Promise<Suggestion> {
  const { train, test } = splitCases(opts.cases);
  const base = effectiveSkills(opts.skills);
  const target = base.find((e) => e.name === opts.skill);
  if (!target) throw new Error(`${opts.skill} is not active in this catalog`);
  const evaluate = async (description: string, set: readonly TriggerCase[]) =>
    runTriggerEval({
      skill: opts.skill,
      cases: set,
      // The catalog with this one description replaced: the same ranking and listing, built for it.
      skills: base.map((e) => (e === target ? { ...e, description } : e)),
      provider: opts.provider,
      mode: opts.mode,
      ...(opts.runs ? { runs: opts.runs } : {}),
      scratchDir: opts.scratchDir,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
  const judge = async (description: string, iteration: number): Promise<{ c: Candidate; trainResults: QueryResult[]; testResults: QueryResult[] }> => {
    const trainResults = await evaluate(description, train);
    const testResults = await evaluate(description, test);
    const c = { description, train: score(trainResults), test: score(testResults), iteration };
    opts.onProgress?.(c);
    return { c, trainResults, testResults };
  };
  const first = await judge(target.description, 0);
  const tried = [first.c];
  let best = first.c;
  let current = first;
  const writer = opts.writer ?? opts.provider;
  const byWords = writer.name === "offline";
  const text = byWords ? skillText(target) : "";
  // Words each proposal added since the current description (cumulative), and the first misses' unsupported words.
  const addedBy = new Map<string, string[]>([[first.c.description, []]]);
  let unsupported: string[] | undefined;
  const k = Math.max(1, Math.min(MAX_ITERATIONS, opts.iterations ?? DEFAULT_ITERATIONS));
  for (let i = 1; i <= k; i++) {
    if (opts.signal?.aborted) break;
    const misses = current.trainResults.filter((r) => !r.passed && !r.errored);
    if (!misses.length && current.c.test === 1) break; // nothing left to learn from
    let proposal: string | null;
    if (byWords) {
      const p = wordsProposal(current.c.description, text, misses.filter((m) => m.should_trigger).map((m) => m.query));
      unsupported ??= p.unsupported;
      if (!p.description) break; // the same words would come again
      if (!addedBy.has(p.description)) addedBy.set(p.description, [...(addedBy.get(current.c.description) ?? []), ...p.added]);
      proposal = p.description;
    } else {
      const answer = await writer.complete({
        system: "You improve the descriptions of agent skills so an agent picks them for the right requests.",
        messages: [{ role: "user", content: prompt(opts.skill, current.c.description, misses.length ? misses : current.trainResults) }],
        tools: [],
        ...(opts.signal ? { signal: opts.signal } : {}),
        hints: { mode: opts.mode, request: "", skills: [], active: [] },
      });
      proposal = cleanProposal(answer.text);
    }
    if (!proposal || tried.some((t) => t.description === proposal)) continue;
    const next = await judge(proposal, i);
    tried.push(next.c);
    if (better(next.c, best)) best = next.c;
    current = next;
  }
  const wrong = [...first.trainResults, ...first.testResults].filter((r) => !r.passed && !r.errored);
  const queries = wrong.map((r) => r.query);
  const before = placesFor(base, target, first.c.description, queries);
  const after = best === first.c ? before : placesFor(base, target, best.description, queries);
  const rankings = wrong.map((r, j) => ({ query: r.query, should_trigger: r.should_trigger, before: before[j]!, after: after[j]! }));
  return {
    before: first.c,
    best,
    tried,
    split: { train: train.length, test: test.length },
    unchanged: best === first.c,
    proposedBy: byWords ? "words" : "model",
    rankings,
    ...(byWords ? { words: { added: addedBy.get(best.description) ?? [], unsupported: unsupported ?? [] } } : {}),
  };
}
