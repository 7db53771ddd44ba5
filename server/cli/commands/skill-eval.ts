// `omniforge skill eval <name>`: does the skill fire when it should, against the whole catalog this user has
// (same layers, resolution and policy as `skill list`: the console's, from DATABASE_URL or <home>/console.db)?
// Runs the skill's evals/triggers.json (and evals/evals.json prompts) through the agent's selection path.
// Exit 0 when every query passes, 1 otherwise, 2 on usage errors: CI can gate a skill repository on it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CONTEXT_FLAGS, parseCommand, stringFlags, wholeNumber } from "../args";
import { signalExitCode, type CliIO } from "../io";
import { contextFor } from "../policy-source";
import { printable, printableLines } from "../printable";
import { catalogConfigFrom } from "./skill-list";
import { createProvider, isProviderName } from "../../runtime/agent/providers";
import { createSandbox, unsafeRequested } from "../../runtime/sandbox/index";
import { DISCLOSURE_MODES, SETTINGS_FILE_MAX_BYTES, type DisclosureMode } from "../../domain/vocabulary";
import { combineCases, defaultRuns, gradeTaskEvals, type TaskEval, type TaskGrade, DEFAULT_THRESHOLD, MAX_RUNS, parseTaskEvals, parseTriggers, runTriggerEval, summarize, TASK_EVALS_FILE, TRIGGERS_FILE, type QueryResult, type TriggerCase } from "../../runtime/evals";
import { ConfinementError, realPathOf, realRoot } from "../../runtime/registry/confine";
import { isInside } from "../../runtime/registry/layers";
import { resolveAll } from "../../runtime/registry/resolve";
import { FileReadError, readRegularTextFile } from "../../runtime/read-file";
import { SkillIndex } from "../../runtime/registry/skill-index";
import type { ResolveContext } from "../../runtime/registry/types";
import { count, plural } from "../../domain/plural";
import { routingFromSettings } from "../../runtime/agent/routing-settings";

export const summary = "Test whether a skill fires on its trigger set, against the whole catalog";

const USAGE = `usage: omniforge skill eval <name> [--triggers FILE] [--provider offline|openai|anthropic] [--model M]
                           [--mode tool|prompt|orchestrated] [--runs N] [--threshold T] [--json]
  --triggers   a trigger set (skill-creator's [{"query","should_trigger"}]); default: the skill's
               ${TRIGGERS_FILE}, plus the prompts of ${TASK_EVALS_FILE} as should-trigger cases
  --provider   offline (default, deterministic), openai (OPENAI_API_KEY, OPENAI_BASE_URL) or anthropic
  --runs       runs per query (default 3 for model providers, 1 offline; at most ${MAX_RUNS})
  --threshold  trigger rate a query needs to count as triggered (default ${DEFAULT_THRESHOLD})
  --skills     a folder of skill folders read as part of the project layer; repeatable
  --home, --project, --user, --environment (--env), --agent, --tenant: as for \`omniforge skill list\`
  --json       one JSON object: {"skill","provider","model","mode","runs","results":[...],"summary":{...}}
exit status: 0 every query passed, 1 some failed or errored, 2 usage error`;

function readCases(file: string, kind: "triggers" | "tasks"): { cases: TriggerCase[]; problems: string[]; tasks?: TaskEval[] } {
  const text = readRegularTextFile(file, SETTINGS_FILE_MAX_BYTES);
  if (kind === "triggers") {
    const p = parseTriggers(text);
    return { cases: p.value, problems: p.diagnostics.map((d) => `${file}:${d.line}:${d.column}: ${d.message} [${d.code}]`) };
  }
  const p = parseTaskEvals(text);
  return { cases: combineCases([], p.value.evals), tasks: p.value.evals, problems: p.diagnostics.map((d) => `${file}:${d.line}:${d.column}: ${d.message} [${d.code}]`) };
}

/**
 * A file of the skill's own folder (evals/triggers.json), or null when there is none. One that resolves outside the
 * folder through a symbolic link is refused, as every door refuses it: it is never read.
 */
function ownFile(skillDir: string, rel: string): string | null {
  const file = path.join(skillDir, ...rel.split("/"));
  if (!fs.lstatSync(file, { throwIfNoEntry: false })) return null;
  if (!isInside(realRoot(skillDir), realPathOf(file))) {
    throw new ConfinementError(`${rel} is a symbolic link (or goes through one) to a place outside the skill folder; it is not read. Delete the link or copy the file into the skill.`, "link.outside-layer");
  }
  return file;
}

function gradesReport(grades: TaskGrade[]): string {
  const lines: string[] = [];
  for (const g of grades) {
    lines.push(printable(`task eval ${g.id}: ${g.prompt}`));
    if (g.error) lines.push(`  ERR  ${printable(g.error)}`);
    for (const x of g.expectations) lines.push(`  ${x.passed ? "pass" : "FAIL"}  ${printable(`${x.expectation}${x.reason ? ` (${x.reason})` : ""}`)}`);
  }
  return lines.join("\n") + "\n";
}

const pct = (n: number | null) => (n === null ? "n/a" : `${Math.round(n * 100)}%`);

function textReport(skill: string, results: QueryResult[], s: ReturnType<typeof summarize>, head: string): string {
  const lines = [head];
  for (const r of results) {
    const mark = r.errored ? "ERR " : r.passed ? "pass" : "FAIL";
    const expect = r.should_trigger ? "should fire" : "should not";
    const others = r.chosen.filter((c) => c !== skill);
    lines.push(`${mark}  ${pct(r.triggered).padStart(4)}  ${expect.padEnd(11)}  ${printable(r.query)}`);
    if (r.errored) lines.push(`      provider error: ${printable(r.error ?? "")}`);
    else if (!r.passed) {
      if (others.length) lines.push(`      fired instead: ${printable(others.join(", "))}`);
      lines.push(`      listed: ${r.listed}`);
      for (const w of r.why ?? []) lines.push(`      ranking: ${printable(w)}`);
      if (r.reason) lines.push(`      model: ${printable(r.reason)}`);
    }
  }
  lines.push(
    `${s.passed}/${s.total} passed · precision ${pct(s.precision)} · recall ${pct(s.recall)} · F1 ${pct(s.f1)} · accuracy ${pct(s.accuracy)}` +
      (s.errored ? ` · ${s.errored} errored` : "") +
      (s.competitors.length ? ` · fired instead: ${printable(s.competitors.map((c) => `${c.skill} (${c.queries})`).join(", "))}` : ""),
  );
  return lines.join("\n") + "\n";
}

export async function run(args: string[], io: CliIO): Promise<number> {
  const cmd = parseCommand("skill eval", USAGE, args, {
    ...CONTEXT_FLAGS,
    skills: { type: "string", multiple: true },
    ...stringFlags("triggers", "provider", "model", "mode", "runs", "threshold"),
  }, io);
  if (typeof cmd === "number") return cmd;
  const { values, positionals, fail } = cmd;
  if (positionals.length !== 1) return fail("give the name of one skill");
  const name = positionals[0]!;
  const mode = (values.mode ?? "tool") as DisclosureMode;
  if (!DISCLOSURE_MODES.includes(mode)) return fail(`--mode must be one of ${DISCLOSURE_MODES.join(", ")}, not "${values.mode}"`);
  if (values.provider !== undefined && !isProviderName(values.provider)) return fail(`unknown provider "${values.provider}": use offline, openai or anthropic`);
  const runs = values.runs === undefined ? undefined : wholeNumber(values.runs, 1, MAX_RUNS);
  if (runs === null) return fail(`--runs must be a whole number from 1 to ${MAX_RUNS}`);
  const threshold = values.threshold === undefined ? DEFAULT_THRESHOLD : Number(values.threshold);
  if (!(threshold > 0 && threshold <= 1)) return fail("--threshold must be a number above 0 and at most 1");

  let provider;
  let ctx: ResolveContext;
  let config;
  try {
    provider = createProvider(values.provider, values.model ? { ...io.env, OMNIFORGE_MODEL: values.model } : io.env);
    config = catalogConfigFrom(values, io);
    ({ ctx } = await contextFor(config, values, io.cwd, io.env));
  } catch (e) {
    // A folder that is none, a wrong config.yaml or policy file: one line, no usage (the call itself was right).
    return fail(e as Error);
  }

  const index = SkillIndex.build(config);
  const resolved = resolveAll(index, ctx);
  const target = resolved.skills.find((e) => e.name === name);
  if (!target) {
    // Blocked, disabled, out of scope, awaiting approval or invalid: say which, since agents never see it either.
    const why = resolved.byName[name]?.candidates[0]?.reason;
    if (why) return fail(new Error(`"${name}" is not active here, so no agent can choose it: ${why} (see \`omniforge skill list\`)`));
    return fail(`no skill named "${name}" in this catalog`);
  }

  const problems: string[] = [];
  let cases: TriggerCase[] = [];
  let tasks: TaskEval[] = [];
  try {
    if (values.triggers) {
      const r = readCases(path.resolve(io.cwd, values.triggers), "triggers");
      cases = r.cases;
      problems.push(...r.problems);
    } else {
      const t = ownFile(target.dir, TRIGGERS_FILE);
      const e = ownFile(target.dir, TASK_EVALS_FILE);
      const fromTriggers = t ? readCases(t, "triggers") : { cases: [], problems: [] };
      const fromTasks = e ? readCases(e, "tasks") : { cases: [], problems: [] };
      tasks = fromTasks.tasks ?? [];
      problems.push(...fromTriggers.problems, ...fromTasks.problems);
      const seen = new Set(fromTriggers.cases.map((c) => c.query));
      cases = [...fromTriggers.cases, ...fromTasks.cases.filter((c) => !seen.has(c.query))];
      if (!cases.length && !problems.length) return fail(`${name} has no trigger set: write ${path.join(target.dir, ...TRIGGERS_FILE.split("/"))} (skill-creator's format) or pass --triggers FILE`);
    }
    // "0/0 passed" with exit 0 would let CI pass a skill that was never tested.
    if (!cases.length && !problems.length) return fail(new Error(`${values.triggers} holds no trigger cases: write at least one {"query": "...", "should_trigger": true}`));
  } catch (e) {
    // The call was right, the file is not: one line, no usage under it.
    if (e instanceof FileReadError || e instanceof ConfinementError) return fail(new Error(`cannot read the trigger set: ${e.message}`));
    return fail(new Error(`cannot read the trigger set: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`));
  }
  if (problems.length) {
    io.err(printableLines(problems.join("\n")) + "\n");
    if (!cases.length) return 2;
  }

  const scratchDir = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-eval-"));
  const ctl = new AbortController();
  let stoppedBy: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    stoppedBy = signal;
    ctl.abort();
  };
  process.once("SIGINT", onSignal);
  try {
    const results = await runTriggerEval({
      skill: name,
      cases,
      skills: { index, context: ctx },
      searchIndex: index,
      provider,
      routing: await routingFromSettings(io.env, config.home),
      mode,
      ...(runs !== undefined ? { runs } : {}),
      threshold,
      scratchDir,
      signal: ctl.signal,
    });
    const s = summarize(results, name);
    const usedRuns = runs ?? defaultRuns(provider.name);
    // evals.json expectations are graded by the model (a model provider only), after the trigger queries.
    const withExpectations = tasks.filter((t) => t.expectations?.length);
    let grades: TaskGrade[] = [];
    let gradeNote = "";
    if (withExpectations.length && provider.name === "offline") gradeNote = `${count(withExpectations.length, "task eval")} ${plural(withExpectations.length, "has", "have")} expectations: grading them needs a model provider (--provider openai|anthropic).`;
    else if (withExpectations.length) {
      const sandbox = createSandbox({ unsafe: unsafeRequested(io.env) });
      try {
        grades = await gradeTaskEvals({ evals: withExpectations, skills: { index, context: ctx }, searchIndex: index, provider, mode, scratchDir, runner: sandbox, signal: ctl.signal });
      } finally {
        await sandbox.close();
      }
    }
    const gradesFailed = grades.some((g) => g.error || g.expectations.some((x) => !x.passed));
    if (values.json) {
      io.out(
        JSON.stringify({
          skill: name,
          provider: provider.name,
          model: provider.model,
          mode,
          runs: usedRuns,
          results: results.map((r) => ({ query: r.query, should_trigger: r.should_trigger, triggered: r.triggered, passed: r.passed, chosen: r.chosen, tokens: r.tokens, ms: r.ms, ...(r.errored ? { errored: true, error: r.error } : {}), ...(r.why ? { why: r.why } : {}) })),
          summary: { tp: s.tp, fp: s.fp, tn: s.tn, fn: s.fn, precision: s.precision, recall: s.recall, f1: s.f1, accuracy: s.accuracy, errored: s.errored, competitors: s.competitors },
          ...(grades.length ? { grades } : {}),
          ...(gradeNote ? { note: gradeNote } : {}),
        }) + "\n",
      );
    } else {
      if (grades.length) io.out(gradesReport(grades));
      if (gradeNote) io.out(gradeNote + "\n");
      // Queries, names and the model's words come from files and a model: shown, never obeyed by the terminal.
      io.out(textReport(name, results, s, `${printable(name)}: ${count(cases.length, "query", "queries")}, ${provider.name}${provider.name === "offline" ? "" : ` ${provider.model}`}, ${mode} mode, ${count(usedRuns, "run")} each, against ${count(resolved.skills.length, "active skill")}`));
    }
    // Ctrl-C: 130, as a shell reports it, not the 1 of a failed query; the figures above cover only what ran.
    if (stoppedBy) {
      io.err(`stopped by ${stoppedBy} after ${results.length} of ${count(cases.length, "query", "queries")}: the figures cover only those; the rest did not run\n`);
      return signalExitCode(stoppedBy);
    }
    return results.length === cases.length && results.every((r) => r.passed) && !gradesFailed ? 0 : 1;
  } catch (e) {
    if (stoppedBy) return signalExitCode(stoppedBy);
    throw e;
  } finally {
    process.off("SIGINT", onSignal);
    fs.rmSync(scratchDir, { recursive: true, force: true });
  }
}
