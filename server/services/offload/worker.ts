// The offload worker (a child process of the console, started by pool.ts): runs one job of jobs.ts per message and
// answers with its result. Jobs are synchronous, so they run one after another here, never on the console's thread.
import { isServiceError } from "../../domain/errors";
import { JOBS, type FromOffload, type ToOffload } from "./jobs";

if (!process.send) throw new Error("offload/worker.ts runs as the console's child process only (offload/pool.ts)");
const send = (m: FromOffload) => {
  if (process.connected) process.send!(m, (e: Error | null) => e && process.exit(0));
};
// The console gone: nobody is left to answer.
process.on("disconnect", () => process.exit(0));

process.on("message", (m: ToOffload) => {
  try {
    const run = JOBS[m.job] as (...args: unknown[]) => unknown;
    send({ type: "done", id: m.id, value: run(...m.args) });
  } catch (e) {
    send({ type: "done", id: m.id, error: (e as Error).message, ...(isServiceError(e) ? { code: e.code, ...(e.details ? { details: e.details } : {}) } : {}) });
  }
});

send({ type: "ready" });
