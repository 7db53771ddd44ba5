// Trigger eval runs in the console: started by an author on a skill they can read, run in the background
// against the catalog this user has (the playground's resolution: their layers, the stored policy), stored row
// by row as queries finish so the page can follow, cancellable from any console server (services/stops), and
// audited (eval_run) when they end.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { and, desc, eq } from "drizzle-orm";
import { evalRuns, type EvalRunRow } from "../../../db/schema";
import type { DisclosureMode } from "../../domain/vocabulary";
import { defaultRuns, DEFAULT_THRESHOLD, gradeTaskEvals, runTriggerEval, summarize, type TaskGrade, type EvalSummary, type QueryResult, type TriggerCase } from "../../runtime/evals";
import { effectiveSkills } from "../../runtime/agent/skill-source";
import { searchReady } from "../../runtime/search/follow";
import { processWide } from "../../process-wide";
import { resolutionFor } from "../governance/context";
import { checkProviderChoice, providerFor } from "../playground/providers";
import { sharedRunner } from "../playground/sandbox";
import { readSkillFile, tenantSees, type SkillRef, type SkillsContext } from "../skills";
import { existingSkillDir } from "../skills/edit";
import { SkillServiceError } from "../skills/errors";
import { historyKey, refFromHistory } from "../skills/location";
import { casesOf, readTriggerSet } from "./sets";
import { requestStop, watchStop } from "../stops";
import { usersInReach } from "../tenants/admin-reach";
import { processEnv } from "../../../env";
import { routingFromSettings } from "../../runtime/agent/routing-settings";

export interface StartRunInput {
  ref: SkillRef;
  provider: string;
  model?: string;
  mode: DisclosureMode;
  runs?: number;
  threshold?: number;
  /** Run these cases instead of the saved set (the table's unsaved state). */
  cases?: Pick<TriggerCase, "query" | "should_trigger">[];
}

export interface EvalRunView {
  id: number;
  skillName: string;
  skillDigest: string;
  provider: string;
  model: string;
  mode: string;
  runs: number;
  threshold: number;
  status: "running" | "done" | "cancelled" | "failed";
  cases: number;
  results: QueryResult[];
  /** The confusion summary, and the graded task evals when a model provider ran them. */
  summary: (EvalSummary & { tasks?: TaskGrade[] }) | null;
  f1: number | null;
  error: string | null;
  startedAt: number;
  finishedAt: number | null;
}

const running = processWide("evalRuns", () => new Map<number, AbortController>());

/** How often a running set's results so far are stored for the page: every 25 results, or after a second. */
const PROGRESS_EVERY = 25;
const PROGRESS_MS = 1_000;
const keyOf = (ref: SkillRef) => JSON.stringify(historyKey(ref));
const digestOf = (s: string) => createHash("sha256").update(s).digest("hex");

export function viewOf(row: EvalRunRow): EvalRunView {
  return {
    id: row.id,
    skillName: row.skillName,
    skillDigest: row.skillDigest,
    provider: row.provider,
    model: row.model,
    mode: row.mode,
    runs: row.runs,
    threshold: row.threshold,
    status: row.status as EvalRunView["status"],
    cases: row.cases,
    results: JSON.parse(row.results) as QueryResult[],
    summary: row.summary ? (JSON.parse(row.summary) as EvalSummary & { tasks?: TaskGrade[] }) : null,
    f1: row.f1,
    error: row.error,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}

/**
 * The user's catalog as the playground resolves it (their layers, the stored policy) and the definition in `dir`,
 * which must be the active one of its name: an agent never sees a shadowed or blocked definition.
 */
export async function activeDefinition(ctx: SkillsContext, dir: string) {
  const { index, ctx: rctx } = await resolutionFor(ctx.db, ctx.dataHome, { id: ctx.actor.id, role: ctx.actor.role });
  const entry = index.entries().find((e) => e.dir === dir);
  if (!entry?.loadable) throw new SkillServiceError("BAD_REQUEST", "This skill does not load (see its diagnostics), so no agent could choose it: fix it first.");
  const active = effectiveSkills({ index, context: rctx }).find((e) => e.name === entry.name);
  if (!active || active.dir !== dir) {
    const by = active ? `the ${active.layer} layer's definition wins` : "it is not active for you (blocked, disabled, out of scope or waiting for approval)";
    throw new SkillServiceError("BAD_REQUEST", `An agent would never see this definition of ${entry.name}: ${by}. Test the active one instead.`);
  }
  return { index, rctx, entry };
}

/** The provider (a configuration problem is the caller's BAD_REQUEST), the catalog, the active definition and its SKILL.md. */
export async function prepareRun(ctx: SkillsContext, input: { ref: SkillRef; provider: string; model?: string }, dir: string, env: Record<string, string | undefined>) {
  let provider;
  try {
    // No model named: the server's own (OMNIFORGE_MODEL), as a playground session gets, not the provider's built-in default.
    provider = providerFor(input.provider, checkProviderChoice(input.provider, input.model, env), env);
  } catch (e) {
    throw new SkillServiceError("BAD_REQUEST", (e as Error).message);
  }
  const { index, rctx, entry } = await activeDefinition(ctx, dir);
  const skillMd = readSkillFile(ctx, input.ref, path.basename(entry.file));
  return { provider, index, rctx, entry, skillMd };
}

/** Starts a run and returns its id at once; the queries run in the background. */
export async function startRun(ctx: SkillsContext, input: StartRunInput, env: Record<string, string | undefined> = processEnv()): Promise<{ id: number }> {
  if (ctx.actor.role === "viewer") throw new SkillServiceError("FORBIDDEN", "Viewers can read trigger tests but not run them; ask an administrator for the author role.");
  const { ref, dir } = existingSkillDir(ctx, input.ref, "read");
  const set = await readTriggerSet(ctx, ref);
  const cases = input.cases ? input.cases.map((c) => ({ query: c.query, should_trigger: c.should_trigger })) : casesOf(set);
  const tasks = set.tasks.filter((t) => t.expectations?.length);
  if (!cases.length) throw new SkillServiceError("BAD_REQUEST", "The trigger set is empty: add a query that should (or should not) trigger this skill.");
  const { provider, index, rctx, entry, skillMd } = await prepareRun(ctx, { ...input, ref }, dir, env);
  const runs = input.runs ?? defaultRuns(provider.name);
  const threshold = input.threshold ?? DEFAULT_THRESHOLD;
  const row = (await ctx.db
    .insert(evalRuns)
    .values({
      skillKey: keyOf(ref),
      skillName: entry.name,
      layer: ref.layer,
      skillDigest: skillMd.digest,
      setDigest: digestOf(JSON.stringify(cases)),
      provider: provider.name,
      model: provider.model,
      mode: input.mode,
      runs,
      threshold,
      status: "running",
      cases: cases.length,
      results: "[]",
      userId: ctx.actor.id,
      startedAt: Date.now(),
    })
    .returning({ id: evalRuns.id }))[0]!;
  const id = row.id;
  const controller = new AbortController();
  running().set(id, controller);
  const unwatch = watchStop(ctx.db, "eval", String(id), controller);
  const scratchDir = path.join(ctx.dataHome.scratchRoot, `eval-${id}`);
  fs.mkdirSync(scratchDir, { recursive: true, mode: 0o700 });
  const results: QueryResult[] = [];
  let savedAt = Date.now();
  let graded: TaskGrade[] = [];
  void (async () => {
    let status: EvalRunView["status"] = "done";
    let error: string | null = null;
    try {
      // The ranking's search over this catalog, built ahead in slices: the first run after start built it inside
      // its first query, holding every other request meanwhile.
      await searchReady(index);
      await runTriggerEval({
        skill: entry.name,
        cases,
        skills: { index, context: rctx },
        searchIndex: index,
        provider,
        routing: await routingFromSettings(env, ctx.dataHome.home),
        mode: input.mode,
        runs,
        threshold,
        scratchDir,
        userId: ctx.actor.id,
        signal: controller.signal,
        onResult: async (r) => {
          results.push(r);
          // The page's progress, every PROGRESS_EVERY results or PROGRESS_MS: the whole list after every result was
          // 500 writes and 30 MB through the console's thread and WAL for a 500-case run.
          if (results.length % PROGRESS_EVERY && Date.now() - savedAt < PROGRESS_MS) return;
          savedAt = Date.now();
          await ctx.db.update(evalRuns).set({ results: JSON.stringify(results) }).where(eq(evalRuns.id, id));
        },
      });
      // evals.json expectations, judged by the model against real answers (a model provider only).
      if (tasks.length && provider.name !== "offline" && !controller.signal.aborted) {
        graded = await gradeTaskEvals({ evals: tasks, skills: { index, context: rctx }, searchIndex: index, provider, mode: input.mode, scratchDir, runner: sharedRunner(ctx.dataHome.scratchRoot).sandbox, signal: controller.signal });
      }
      if (controller.signal.aborted) status = "cancelled";
    } catch (e) {
      status = "failed";
      error = (e as Error).message;
    } finally {
      fs.rmSync(scratchDir, { recursive: true, force: true });
    }
    const summary: EvalSummary & { tasks?: TaskGrade[] } = { ...summarize(results, entry.name), ...(graded.length ? { tasks: graded } : {}) };
    try {
      await ctx.db
        .update(evalRuns)
        .set({ status, results: JSON.stringify(results), summary: JSON.stringify(summary), f1: summary.f1, error, finishedAt: Date.now() })
        .where(eq(evalRuns.id, id));
    } finally {
      // Only once the row says how the run ended: whoever finds it no longer running reads its final status
      // (on PostgreSQL the write takes a round trip, and a reader between the two saw "running" for good).
      running().delete(id);
    }
    ctx.audit.record({
      type: "eval_run",
      actor: { id: ctx.actor.id, email: ctx.actor.email },
      skill: entry.name,
      layer: ref.layer,
      digest: skillMd.digest,
      outcome: status === "failed" ? "failed" : "ok",
      ...(rctx.tenant ? { tenant: rctx.tenant } : {}),
      details: { runId: id, status, provider: provider.name, model: provider.model, mode: input.mode, runs, cases: cases.length, passed: summary.passed, f1: summary.f1, errored: summary.errored },
    });
  })().finally(async () => {
    // Running until its row says how it ended, so whoever waits for it (settledRun) reads the final row.
    running().delete(id);
    await unwatch();
  });
  return { id };
}

async function ownRow(ctx: SkillsContext, id: number): Promise<EvalRunRow> {
  const row = (await ctx.db.select().from(evalRuns).where(eq(evalRuns.id, id)).limit(1))[0];
  if (!row) throw new SkillServiceError("NOT_FOUND", `There is no eval run ${id}.`);
  const key = JSON.parse(row.skillKey) as { layer: SkillRef["layer"]; ownerId: string | null; plugin: string | null; skill: string };
  // Reading a run needs the right to read its skill (another user's personal skill stays theirs).
  if (key.layer === "personal" && key.ownerId !== ctx.actor.id && ctx.actor.role !== "admin") throw new SkillServiceError("FORBIDDEN", "This run belongs to another user's personal skill.");
  // A run of a skill scoped to other tenants (issue #40) is no run to this caller, in the same words.
  if (!(await tenantSees(ctx, refFromHistory(key)))) throw new SkillServiceError("NOT_FOUND", `There is no eval run ${id}.`);
  return row;
}

export async function getRun(ctx: SkillsContext, id: number): Promise<EvalRunView> {
  return viewOf(await ownRow(ctx, id));
}

/** The runs of one skill, newest first (results left out: the history chart and list need the figures only). */
export async function listRuns(ctx: SkillsContext, input: SkillRef, limit = 50) {
  const { ref } = existingSkillDir(ctx, input, "read");
  return (await ctx.db
    .select()
    .from(evalRuns)
    .where(eq(evalRuns.skillKey, keyOf(ref)))
    .orderBy(desc(evalRuns.id))
    .limit(limit))
    .map((r) => {
      const { results: _r, ...rest } = viewOf(r);
      return rest;
    });
}

/**
 * Cancels a running run, whichever server runs it: the request is stored and audited once, and that server stops
 * the run at its next look (this server's at once). False when the run is not running.
 */
export async function cancelRun(ctx: SkillsContext, id: number): Promise<{ cancelled: boolean }> {
  const row = await ownRow(ctx, id);
  if (row.userId !== ctx.actor.id) {
    if (ctx.actor.role !== "admin") throw new SkillServiceError("FORBIDDEN", "Only the person who started a run (or an administrator) can cancel it.");
    // An admin stops the runs of the people they manage (issue #40): a tenant admin sees an unscoped skill's runs,
    // but one started by someone outside their tenants is that person's, or the global admin's, to stop.
    if (!(await usersInReach(ctx.db, ctx.actor))(row.userId)) {
      throw new SkillServiceError("FORBIDDEN", `Run ${id} was started by someone outside your tenants: only they, or the global admin (an admin of no tenant), can cancel it.`, { code: "tenant.outside-reach" });
    }
  }
  if (row.status !== "running") return { cancelled: false };
  await requestStop(ctx.db, { audit: ctx.audit, actor: { id: ctx.actor.id, email: ctx.actor.email } }, "eval", String(id), { runId: id, skill: row.skillName });
  return { cancelled: true };
}

/** Every skill with a run: its last finished run's F1 and when it ran (the catalog's overview). */
export async function overview(ctx: SkillsContext) {
  const rows = await ctx.db.select().from(evalRuns).where(and(eq(evalRuns.status, "done"))).orderBy(desc(evalRuns.id));
  const seen = new Map<string, ReturnType<typeof toOverview>>();
  const hidden = new Set<string>();
  for (const r of rows) {
    if (seen.has(r.skillKey) || hidden.has(r.skillKey)) continue;
    const key = JSON.parse(r.skillKey) as { layer: SkillRef["layer"]; ownerId: string | null; plugin: string | null; skill: string };
    if (key.layer === "personal" && key.ownerId !== ctx.actor.id) continue;
    if (!(await tenantSees(ctx, refFromHistory(key)))) {
      hidden.add(r.skillKey);
      continue;
    }
    seen.set(r.skillKey, toOverview(r, key));
  }
  return [...seen.values()];
}

function toOverview(r: EvalRunRow, key: { layer: SkillRef["layer"]; ownerId: string | null; plugin: string | null; skill: string }) {
  const s = r.summary ? (JSON.parse(r.summary) as EvalSummary) : null;
  return { runId: r.id, skillName: r.skillName, ref: refFromHistory(key), layer: key.layer, f1: r.f1, passed: s?.passed ?? 0, total: s?.total ?? r.cases, provider: r.provider, finishedAt: r.finishedAt };
}

/** Waits for a run to finish (tests and the CLI-like callers); resolves at once when it is not running. */
export async function settledRun(ctx: SkillsContext, id: number, timeoutMs = 60_000): Promise<EvalRunView> {
  const end = Date.now() + timeoutMs;
  while (running().has(id) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return getRun(ctx, id);
}
