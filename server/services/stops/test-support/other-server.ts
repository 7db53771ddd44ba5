// "Server B" of the stop tests: a process of its own, with its own memory and its own connection to the same
// database and data home, as another console server behind the proxy is. It asks for one stop through the same
// service call the console's Stop button makes, and prints the answer as JSON.
//   node --import tsx other-server.ts <console.db file | postgres:// URL> <data home> '<request JSON>'
import { closeDb, openDb, postgresDb } from "../../../../db/client";
import { postgresPool } from "../../../../db/dialect";
import { resolveDataHome } from "../../../config";
import { AuditWriter } from "../../audit/writer";
import { cancelRun } from "../../evals";
import { stopTurn } from "../../playground";

type Request =
  | { kind: "turn"; sessionId: string; actor: { id: string; email: string; role: "viewer" | "author" | "admin" } }
  | { kind: "eval"; runId: number; actor: { id: string; email: string; role: "viewer" | "author" | "admin" } };

const [database, home, json] = process.argv.slice(2) as [string, string, string];
const req = JSON.parse(json) as Request;
const postgres = database.startsWith("postgres");
const db = postgres ? postgresDb(database, home) : openDb(database);
const audit = new AuditWriter(db, { stdout: false });
const answer =
  req.kind === "turn"
    ? { stopped: await stopTurn({ db, audit }, req.actor, req.sessionId) }
    : await cancelRun({ db, dataHome: resolveDataHome({ OMNIFORGE_HOME: home }), audit, actor: req.actor, procedure: "evals.cancel" }, req.runId);
await audit.close();
if (postgres) await postgresPool(db)!.end();
else closeDb(database);
process.stdout.write(JSON.stringify(answer));
