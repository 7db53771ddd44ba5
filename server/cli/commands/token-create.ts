// `omniforge token create --email E --scope S[,S] [--expires DAYS] [--name N]`: on the console's own machine, an
// administrator's shell mints an access token for a console user and prints the token alone on stdout, so a
// provisioning script can capture it. Reaching the console's database (<home>/console.db, or its PostgreSQL with
// DATABASE_URL) is the authority here (as for skill deploy);
// the event is audited in the console's chain with the actor "cli".
import { parseCommand, stringFlags, wholeNumber } from "../args";
import { ConsoleDbError, openConsole, type ConsoleDatabase } from "../console-db";
import { errorLine } from "../error-line";
import type { CliIO } from "../io";
import { printable } from "../printable";
import { isServiceError } from "../../domain/errors";
import { TOKEN_DEFAULT_EXPIRY_DAYS, TOKEN_MAX_EXPIRY_DAYS } from "../../domain/tokens";
import { auditSinkFor, flushAudit } from "../../services/audit";
import { createToken } from "../../services/tokens";
import { findUserByEmail } from "../../services/users/users";
import { configFrom } from "./skill-list";

export const summary = "Mint an access token for a console user (prints the token alone)";

const USAGE = `usage: omniforge token create --email EMAIL --scope catalog:read[,telemetry:write] [--expires DAYS]
                             [--name NAME] [--home DIR]
  makes an access token for the console user EMAIL in <home>/console.db and prints it alone on stdout
  (it is shown once: only its hash is kept); --expires: 1 to ${TOKEN_MAX_EXPIRY_DAYS} days, ${TOKEN_DEFAULT_EXPIRY_DAYS} by default
`;

export async function run(args: string[], io: CliIO): Promise<number> {
  const cmd = parseCommand("token create", USAGE, args, {
    help: { type: "boolean", short: "h" },
    ...stringFlags("home", "email", "scope", "expires", "name"),
  }, io, { noArguments: true, required: { email: "", scope: "" } });
  if (typeof cmd === "number") return cmd;
  const { values, fail: usage } = cmd;
  const days = values.expires === undefined ? undefined : wholeNumber(values.expires, 1, TOKEN_MAX_EXPIRY_DAYS);
  if (days === null) return usage(`--expires takes a whole number of days from 1 to ${TOKEN_MAX_EXPIRY_DAYS}, not "${values.expires}"`);
  let home: string;
  try {
    home = configFrom({ home: values.home }, io).home;
  } catch (e) {
    return usage(e as Error);
  }
  let opened: ConsoleDatabase;
  try {
    opened = await openConsole(home, "write", io.env);
  } catch (e) {
    io.err(`omniforge token create: ${e instanceof ConsoleDbError ? e.message : errorLine(e)}\n`);
    return 1;
  }
  const db = opened.db;
  try {
    const user = await findUserByEmail(db, values.email);
    if (!user) {
      io.err(`omniforge token create: no console user with the email ${printable(values.email)}\n`);
      return 1;
    }
    const { token } = await createToken(
      db,
      { id: "cli", role: "admin" },
      { name: values.name ?? `cli ${new Date().toISOString().slice(0, 10)}`, scopes: values.scope, expiresInDays: days, forUserId: user.id },
      { audit: auditSinkFor(db, { stdout: false }), actor: { id: "cli" } },
    );
    await flushAudit(db);
    io.out(token + "\n");
    return 0;
  } catch (e) {
    if (isServiceError(e)) {
      io.err(`omniforge token create: ${printable(e.message)}\n`);
      return e.code === "BAD_REQUEST" ? 2 : 1;
    }
    throw e;
  } finally {
    await opened.close();
  }
}
