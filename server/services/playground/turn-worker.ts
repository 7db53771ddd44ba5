// The playground's turn worker (a process of its own, started by turn-pool.ts): runs turns with its own database
// connection, skill indexes and sandbox, and sends every event and audit record back to the console, which streams
// them to followers and keeps the audit chain. Many turns run here at once (they are async).
import { getDb } from "../../../db/client";
import { removeOwnSandboxDirs } from "../../runtime/sandbox/temp-dirs";
import { onShutdown } from "../../http/shutdown";
import type { AuditEvent } from "../../runtime/audit/events";
import { refreshAll } from "../catalog/catalog";
import type { FromWorker, ToWorker, TurnOutcome } from "./turn-protocol";
import { runTurnJob } from "./turn-run";
import { listingPreview } from "./listing";

if (!process.send) throw new Error("turn-worker.ts runs as the console's child process only (turn-pool.ts)");
// A send that fails means the console is gone (its end of the channel closed): the worker has nobody to work for.
const send = (m: FromWorker) => {
  if (process.connected) process.send!(m, (e: Error | null) => e && process.exit(0));
};
const running = new Map<string, AbortController>();

// The console gone (stopped, or killed without a word): nothing is left to report to.
process.on("disconnect", () => process.exit(0));
// This process's sandbox folders (named by its pid) go with it, however it ends; Ctrl-C reaches it with the console.
const cleanUp = () => {
  removeOwnSandboxDirs();
};
onShutdown(cleanUp, cleanUp);

process.on("message", (m: ToWorker) => {
  if (m.type === "abort") {
    running.get(m.id)?.abort(new Error("stopped by the user"));
    return;
  }
  if (m.type === "refresh") {
    refreshAll(m.paths);
    return;
  }
  if (m.type === "listing") {
    const { call } = m;
    void (async () => {
      try {
        const db = await getDb(call.dataHome, call.database);
        const value = await listingPreview({ db, dataHome: call.dataHome, env: call.env }, call.actor, call.sessionId, call.mode, call.request);
        send({ type: "listed", id: call.id, value });
      } catch (e) {
        send({ type: "listed", id: call.id, error: (e as Error).message });
      }
    })();
    return;
  }
  const { job } = m;
  const controller = new AbortController();
  running.set(job.id, controller);
  void (async () => {
    let outcome: TurnOutcome;
    try {
      outcome = await runTurnJob(await getDb(job.dataHome, job.database), job, {
        push: (event) => send({ type: "event", id: job.id, event }),
        audit: { record: (event: AuditEvent) => send({ type: "audit", id: job.id, event }) },
        signal: controller.signal,
      });
    } catch (e) {
      outcome = { answer: "", reason: "error", error: (e as Error).message };
    }
    running.delete(job.id);
    send({ type: "done", id: job.id, outcome });
  })();
});

send({ type: "ready" });
