// "Server B" of the turn tests: a process of its own, with its own memory and its own connection to the same
// database and data home, as another console server behind the proxy is. It makes one playground call through the
// same service functions the console's handlers call, and prints each answer as a JSON line:
//   send: {"started":{turn,mode}} (or {"refused":{code,message}}), then {"ended":true} when its turn has ended;
//   get:  {"running": <the session's running turn as this server sees it>}.
//   node --import tsx turn-server.ts <console.db file | postgres:// URL> '<request JSON>'
import { closeDb, openDb, postgresDb } from "../../../../db/client";
import { postgresPool } from "../../../../db/dialect";
import type { DataHome } from "../../../config";
import { ServiceError } from "../../../domain/errors";
import { AuditWriter } from "../../audit/writer";
import { runningTurn, settled, startTurn, type Actor } from "../index";

interface Request {
  action: "send" | "get";
  sessionId: string;
  actor: Actor;
  dataHome: DataHome;
  env?: Record<string, string>;
}

const [database, json] = process.argv.slice(2) as [string, string];
const req = JSON.parse(json) as Request;
const postgres = database.startsWith("postgres");
const db = postgres ? postgresDb(database, req.dataHome.home) : openDb(database);
const audit = new AuditWriter(db, { stdout: false });
const say = (answer: unknown) => process.stdout.write(`${JSON.stringify(answer)}\n`);

if (req.action === "get") say({ running: await runningTurn(db, req.sessionId) });
else {
  try {
    say({ started: await startTurn({ db, dataHome: req.dataHome, audit, env: req.env ?? {} }, req.actor, req.sessionId, { request: "a request sent through server B" }) });
    say({ ended: await settled(req.sessionId, 600_000) });
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    say({ refused: { code: e.code, message: e.message } });
  }
}
await audit.close();
if (postgres) await postgresPool(db)!.end();
else closeDb(database);
