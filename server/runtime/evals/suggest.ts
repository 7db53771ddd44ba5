// "Suggest a better description": skill-creator's loop, inside the real catalog. The set is split 60/40 into train
// and test (stratified, deterministic); the model sees the current description and the train queries it gets wrong
// and proposes a new one; each proposal is scored by running the set with the skill's description replaced in the
// catalog; the best by test score (then train score, then shorter) wins after at most K iterations. Nothing is
// written: the caller shows the diff and the author applies it.
import { FORMAT_LIMITS } from "../../domain/vocabulary";
import { effectiveSkills } from "../agent/skill-source";
import type { AgentSkillSource, DisclosureMode, ModelProvider } from "../agent/types";
import type { TriggerCase } from "./format";
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
  const judge = async (description: string, iteration: number): Promise<{ c: Candidate; trainResults: QueryResult[] }> => {
    const trainResults = await evaluate(description, train);
    const testResults = await evaluate(description, test);
    const c = { description, train: score(trainResults), test: score(testResults), iteration };
    opts.onProgress?.(c);
    return { c, trainResults };
  };
  const first = await judge(target.description, 0);
  const tried = [first.c];
  let best = first.c;
  let current = first;
  const writer = opts.writer ?? opts.provider;
  const k = Math.max(1, Math.min(MAX_ITERATIONS, opts.iterations ?? DEFAULT_ITERATIONS));
  for (let i = 1; i <= k; i++) {
    if (opts.signal?.aborted) break;
    const misses = current.trainResults.filter((r) => !r.passed && !r.errored);
    if (!misses.length && current.c.test === 1) break; // nothing left to learn from
    const answer = await writer.complete({
      system: "You improve the descriptions of agent skills so an agent picks them for the right requests.",
      messages: [{ role: "user", content: prompt(opts.skill, current.c.description, misses.length ? misses : current.trainResults) }],
      tools: [],
      ...(opts.signal ? { signal: opts.signal } : {}),
      hints: { mode: opts.mode, request: "", skills: [], active: [] },
    });
    const proposal = cleanProposal(answer.text);
    if (!proposal || tried.some((t) => t.description === proposal)) continue;
    const next = await judge(proposal, i);
    tried.push(next.c);
    if (better(next.c, best)) best = next.c;
    current = next;
  }
  return { before: first.c, best, tried, split: { train: train.length, test: test.length }, unchanged: best === first.c };
}
