// One playground turn's work: the provider, the sandbox, the session's skills and the agent loop. Runs in the
// turn worker (turn-worker.ts) so ranking hundreds of skills and the loop never hold up the console's requests,
// or in the console's thread when a test hands in its own script runner.
import type { Db } from "../../../db/client";
import { databaseUnreachableMessage } from "../../../db/dialect";
import { runAgent, type AgentEvent } from "../../runtime/agent";
import type { AuditSink } from "../../runtime/audit/events";
import { protocolOptions } from "./active-skills";
import { providerFor, providerForSkillModel } from "./providers";
import { sharedRunner, turnRunner, type SharedRunner } from "./sandbox";
import { sessionSkillSet } from "./scope";
import { configContextFor } from "../skills-config";
import { scratchDirOf } from "./sessions";
import type { TurnJob, TurnOutcome } from "./turn-protocol";
import type { PlaygroundNote, StreamEvent } from "./types";
import { routingFromSettings } from "../../runtime/agent/routing-settings";

export interface TurnHooks {
  push(event: StreamEvent): void;
  audit: AuditSink;
  signal: AbortSignal;
  runner?: SharedRunner;
}

export async function runTurnJob(db: Db, job: TurnJob, hooks: TurnHooks): Promise<TurnOutcome> {
  const t0 = performance.now();
  const note = (n: PlaygroundNote) => hooks.push({ ...n, t: Math.round(performance.now() - t0) });
  const { session, env } = job;
  try {
    const provider = providerFor(session.provider, session.model, env);
    const shared = hooks.runner ?? sharedRunner(job.dataHome.scratchRoot, env);
    const status = await shared.sandbox.status();
    note({ type: "sandbox", mode: status.mode, detail: status.detail });
    // Skills off (config.yaml or OMNIFORGE_SKILLS_ENABLED): no scan, no listing, no skill tools (seed 003).
    const skillsOn = configContextFor(job.dataHome.home, job.dataHome.projectRoot, env).skillsEnabled !== false;
    const set = skillsOn ? await sessionSkillSet(db, job.dataHome, session) : { entries: [] };
    const result = await runAgent({
      request: job.request,
      history: job.history,
      mode: job.mode,
      provider,
      routing: await routingFromSettings(env, job.dataHome.home),
      skills: set.entries,
      ...("index" in set ? { searchIndex: set.index } : { skillsEnabled: false }),
      runner: turnRunner(shared, note),
      // A skill's `model` field runs the rest of the turn with that model when its provider is configured.
      modelFor: (model) => providerForSkillModel(model, env),
      // Every row of the turn carries the session's tenant, so that tenant's admin reads it (issue #40).
      audit: session.tenant ? { record: (e) => hooks.audit.record({ ...e, tenant: e.tenant ?? session.tenant! }) } : hooks.audit,
      scratchDir: scratchDirOf(job.dataHome, session.id),
      sessionId: session.id,
      userId: session.userId,
      // The session's context (the admin's defaults fill what it leaves out in the resolution, not here).
      scope: { ...(session.tenant ? { tenant: session.tenant } : {}), ...(session.agent ? { agent: session.agent } : {}), ...(session.environment ? { environment: session.environment } : {}) },
      ...(job.stepLimit ? { stepLimit: job.stepLimit } : {}),
      ...protocolOptions(env, job.mode, job.activeSkills),
      signal: hooks.signal,
      onEvent: (e: AgentEvent) => hooks.push(e),
    });
    return {
      answer: result.answer,
      provider: provider.name,
      model: provider.model,
      reason: result.reason,
      ...(result.error ? { error: result.error } : {}),
      ...(job.mode === "orchestrated" ? { activeSkills: result.activeSkills } : {}),
    };
  } catch (e) {
    // Anything before or around the loop (provider not configured, index unreadable) ends this turn only. A database
    // that does not answer is said in its one line: drizzle's message is the failed query with its parameters, and
    // this text is streamed to the page and kept in the session.
    const message = databaseUnreachableMessage(e) ?? (e instanceof Error ? e.message : String(e));
    hooks.push({ type: "error", message, runId: "", t: Math.round(performance.now() - t0), depth: 0 } as AgentEvent);
    return { answer: "", reason: hooks.signal.aborted ? "aborted" : "error", error: message };
  }
}
