// The audit chain's keys, kept in the data home's secrets/ folder beside the session secret: the HMAC key
// that keys every row's hash, and the Ed25519 key pair that signs checkpoints. The data home is the folder
// of the database file (or, on PostgreSQL, the home the console serves), so the console and the CLI find the same
// keys, and a test's temp database gets keys of its own. Keys never enter the database and are never printed.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataHomeOfDb, type Db } from "../../../db/client";
import { AUDIT_CHECKPOINT_HEAD_FILE, AUDIT_CHECKPOINTS_FILE, AUDIT_HMAC_KEY_FILE, AUDIT_KEYED_FROM_FILE, AUDIT_SIGNING_KEY_FILE } from "../../domain/audit-chain";
import { processWide } from "../../process-wide";

export interface AuditKeys {
  /** The data home (null for an in-memory database: keys then live only in this process). */
  home: string | null;
  secretsDir: string | null;
  checkpointsFile: string | null;
  /** Where the newest checkpoint is recorded, out of the data home's reach (secrets/). */
  checkpointHeadFile: string | null;
  /** Null when no key exists yet (verification of a database that was never written by a keyed writer). */
  hmacKey: Buffer | null;
  signingKey: KeyObject | null;
  publicKey: KeyObject | null;
  /** The first row written with the key; rows from here on must be keyed. */
  keyedFrom: number | null;
}

const byHome = processWide("auditKeys", () => new Map<string, AuditKeys>())();
const byMemoryDb = processWide("auditMemKeys", () => new WeakMap<Db, AuditKeys>())();

/** The data home whose secrets/ key the database's chain: the SQLite file's folder, or the home a PostgreSQL database serves. */
export function dataHomeOf(db: Db): string | null {
  return dataHomeOfDb(db);
}

function readSecret(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8").trim() || null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/**
 * Creates a secret file with mode 0600 unless it exists, and returns what the file holds. Written to a
 * temp file and hard-linked into place, so a second process never reads a half-written key, and of two
 * processes creating it at once both end up with the same one.
 */
function createSecret(dir: string, name: string, value: string): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(/*turbopackIgnore: true*/ dir, name);
  const tmp = path.join(/*turbopackIgnore: true*/ dir, `.${name}.${process.pid}.${randomBytes(4).toString("hex")}`);
  fs.writeFileSync(tmp, value + "\n", { mode: 0o600, flag: "wx" });
  try {
    fs.linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return readSecret(file)!;
}

function fromFiles(home: string): AuditKeys {
  const secretsDir = path.join(/*turbopackIgnore: true*/ home, "secrets");
  const hmac = readSecret(path.join(/*turbopackIgnore: true*/ secretsDir, AUDIT_HMAC_KEY_FILE));
  const pem = readSecret(path.join(/*turbopackIgnore: true*/ secretsDir, AUDIT_SIGNING_KEY_FILE));
  const signingKey = pem ? createPrivateKey(pem) : null;
  const from = readSecret(path.join(/*turbopackIgnore: true*/ secretsDir, AUDIT_KEYED_FROM_FILE));
  return {
    home,
    secretsDir,
    checkpointsFile: path.join(/*turbopackIgnore: true*/ home, AUDIT_CHECKPOINTS_FILE),
    checkpointHeadFile: path.join(/*turbopackIgnore: true*/ secretsDir, AUDIT_CHECKPOINT_HEAD_FILE),
    hmacKey: hmac ? Buffer.from(hmac, "base64url") : null,
    signingKey,
    publicKey: signingKey ? createPublicKey(signingKey) : null,
    keyedFrom: from && /^\d+$/.test(from) ? Number(from) : null,
  };
}

/** The keys as they are now, without creating any (verification). */
export function loadAuditKeys(db: Db): AuditKeys {
  const home = dataHomeOfDb(db);
  if (!home) return byMemoryDb.get(db) ?? { home: null, secretsDir: null, checkpointsFile: null, checkpointHeadFile: null, hmacKey: null, signingKey: null, publicKey: null, keyedFrom: null };
  return loadAuditKeysAt(home);
}

/** The keys of a data home (an archive file in <home>/audit-archive finds its keys this way). */
export function loadAuditKeysAt(home: string): AuditKeys {
  const cached = byHome.get(home);
  // Complete keys never change; an incomplete set is read again (another process may have created them).
  if (cached?.hmacKey && cached.signingKey && cached.keyedFrom !== null) return cached;
  const keys = fromFiles(home);
  byHome.set(home, keys);
  return keys;
}

/** The keys, created on first use (the writer). */
export function ensureAuditKeys(db: Db): AuditKeys & { hmacKey: Buffer; signingKey: KeyObject; publicKey: KeyObject } {
  const keys = loadAuditKeys(db);
  if (keys.hmacKey && keys.signingKey && keys.publicKey) return keys as ReturnType<typeof ensureAuditKeys>;
  const pair = generateKeyPairSync("ed25519");
  const hmacB64 = randomBytes(32).toString("base64url");
  const pem = pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString().trim();
  if (!keys.home) {
    const mem: AuditKeys = { ...keys, hmacKey: Buffer.from(hmacB64, "base64url"), signingKey: pair.privateKey, publicKey: pair.publicKey };
    byMemoryDb.set(db, mem);
    return mem as ReturnType<typeof ensureAuditKeys>;
  }
  const dir = keys.secretsDir!;
  if (!keys.hmacKey) createSecret(dir, AUDIT_HMAC_KEY_FILE, hmacB64);
  if (!keys.signingKey) createSecret(dir, AUDIT_SIGNING_KEY_FILE, pem);
  byHome.delete(keys.home);
  return loadAuditKeys(db) as ReturnType<typeof ensureAuditKeys>;
}

/** Records the first keyed row once (called inside the writer's transaction, under the database's write lock). */
export function recordKeyedFrom(db: Db, keys: AuditKeys, firstId: number): void {
  if (keys.keyedFrom !== null) return;
  if (!keys.home) {
    byMemoryDb.set(db, { ...keys, keyedFrom: firstId });
    return;
  }
  createSecret(keys.secretsDir!, AUDIT_KEYED_FROM_FILE, String(firstId));
  byHome.delete(keys.home);
}

/** A short, stable name for a public key (sha256 of its SPKI form): printed with checkpoints and on the audit page. */
export function keyFingerprint(publicKey: KeyObject): string {
  return createHash("sha256").update(publicKey.export({ type: "spki", format: "der" })).digest("base64url").slice(0, 22);
}

export function publicKeyPem(publicKey: KeyObject): string {
  return publicKey.export({ type: "spki", format: "pem" }).toString();
}
