// Everything the console needs before the first request: the data home, the database with migrations, the
// first administrator, the token estimator loaded and (unless OMNIFORGE_DEMO=0) the demo skills. Idempotent and
// safe to call often.
import path from "node:path";
import { eq } from "drizzle-orm";
import { env } from "../../env";
import { getDb, type Db } from "../../db/client";
import { dbKind } from "../../db/dialect";
import { users } from "../../db/schema";
import { ensureDataHome, readOrCreateSecret, resolveDataHome, type DataHome } from "../config";
import { processWide } from "../process-wide";
import { loadTokenizer } from "../runtime/skill/tokens";
import { chainKeyProblem } from "./audit/key-fit";
import { ensureRetentionJob } from "./audit/retention-job";
import { releaseEarlierClaims } from "./playground/turn-claims";
import { seedDemoSkills } from "./demo/seed";
import { generatePassword } from "./users/password";
import { createUser, findUserByEmail } from "./users/users";

// A box rather than the promise itself: a failed start is forgotten so the next request tries again.
const ready = processWide("ready", () => ({ current: undefined as Promise<{ db: Db; dataHome: DataHome }> | undefined }));

export const DEMO_ADMIN_EMAIL = "admin@omniforge.local";

/** A setting this server cannot run with, whatever the next request: the process stops with its one line. */
export class StartRefused extends Error {}

async function ensureFirstAdmin(db: Db, dataHome: DataHome): Promise<string> {
  const existingAdmin = (await db.select().from(users).where(eq(users.role, "admin")).limit(1))[0];
  if (env.OMNIFORGE_ADMIN_EMAIL && env.OMNIFORGE_ADMIN_PASSWORD) {
    const found = await findUserByEmail(db, env.OMNIFORGE_ADMIN_EMAIL);
    if (found) return found.id;
    const u = await createUser(db, { email: env.OMNIFORGE_ADMIN_EMAIL, name: "Administrator", role: "admin", password: env.OMNIFORGE_ADMIN_PASSWORD });
    console.log(`[omniforge] administrator ${u.email} created from OMNIFORGE_ADMIN_EMAIL`);
    return u.id;
  }
  if (existingAdmin) return existingAdmin.id;
  const [password] = readOrCreateSecret(dataHome, "demo-admin-password", () => generatePassword());
  const u = await createUser(db, { email: DEMO_ADMIN_EMAIL, name: "Demo admin", role: "admin", password });
  console.log(
    `[omniforge] demo administrator created: ${DEMO_ADMIN_EMAIL} / ${password}\n` +
      `[omniforge] (this password is printed once; it is kept in ${path.join(dataHome.secretsDir, "demo-admin-password")})`,
  );
  return u.id;
}

/** Says which modes in the data home were looser than private and have been fixed. */
export function logTightened(dataHome: DataHome, notes: string[]): void {
  if (notes.length) console.log(`[omniforge] data home ${dataHome.home} was readable by others; fixed: ${notes.join("; ")}`);
}

export function ensureReady(): Promise<{ db: Db; dataHome: DataHome }> {
  const box = ready();
  box.current ??= (async () => {
    const dataHome = resolveDataHome();
    logTightened(dataHome, ensureDataHome(dataHome));
    const db = await getDb(dataHome);
    // On a shared PostgreSQL, a server given another data home than the others would sign the chain with keys of its own.
    if (dbKind(db) === "postgres") {
      const problem = await chainKeyProblem(db, "set OMNIFORGE_HOME to the data home the other servers share (docs/deploy.md, team setup step 2)");
      if (problem) throw new StartRefused(`the database of DATABASE_URL: ${problem}`);
    }
    const adminId = await ensureFirstAdmin(db, dataHome);
    ensureRetentionJob(db, dataHome);
    // Turns this host's earlier server process was running ended with it: their sessions take a Send at once.
    await releaseEarlierClaims(db);
    // Here, before the console listens, rather than inside the first request that estimates a cost (a trigger run's
    // listing), which held every other request meanwhile (issue 35 item 5).
    loadTokenizer();
    if (env.OMNIFORGE_DEMO) {
      const r = seedDemoSkills(dataHome, adminId);
      if (r.seeded) console.log(`[omniforge] demo data: ${r.count} skills written under ${dataHome.home}`);
    }
    return { db, dataHome };
  })();
  box.current.catch(() => {
    box.current = undefined;
  });
  return box.current;
}
