// The playground's turn worker (a worker_threads thread started by turn-pool.ts): runs turns with its own
// database connection, skill indexes and sandbox, and sends every event and audit record back to the console's
// thread, which streams them to followers and keeps the audit chain. Many turns run here at once (they are async).
import { parentPort } from "node:worker_threads";
import { openDb } from "../../../db/client";
import type { AuditEvent } from "../../runtime/audit/events";
import { refreshAll } from "../catalog/catalog";
import type { FromWorker, ToWorker, TurnOutcome } from "./turn-protocol";
import { runTurnJob } from "./turn-run";
import { listingPreview } from "./listing";

const port = parentPort;
if (!port) throw new Error("turn-worker.ts runs as a worker thread only");
const send = (m: FromWorker) => port.postMessage(m);
const running = new Map<string, AbortController>();

port.on("message", (m: ToWorker) => {
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
        const db = openDb(call.dataHome.dbFile);
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
      outcome = await runTurnJob(openDb(job.dataHome.dbFile), job, {
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
