// Access tokens: made, listed, revoked and checked here. The secret is `omf_` + 32 random bytes (base64url); only
// its sha256 is stored, so a stolen database does not hand out working tokens. Users manage their own tokens;
// administrators also machine tokens (no user) and anyone's. Every create and revoke goes into the audit.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { accessTokens, users, type AccessToken } from "../../../db/schema";
import type { Audited } from "../../runtime/audit/events";
import { tenantList } from "../tenants/membership";
import { ServiceError } from "../../domain/errors";
import {
  TOKEN_DEFAULT_EXPIRY_DAYS,
  TOKEN_LAST_USED_RESOLUTION_MS,
  TOKEN_MAX_EXPIRY_DAYS,
  TOKEN_PREFIX,
  TOKEN_SCOPES,
  TOKEN_SECRET_BYTES,
  type TokenScope,
} from "../../domain/tokens";
import type { Role } from "../../domain/vocabulary";

export interface TokenCaller {
  id: string;
  email?: string;
  role: Role;
}

export interface PublicToken {
  id: string;
  name: string;
  userId: string | null;
  userEmail: string | null;
  createdBy: string;
  scopes: TokenScope[];
  prefix: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  /** The tenants it acts for, fixed at creation (issue #40). */
  tenants: string[];
}

/** Who a valid token speaks for: its user (null for a machine token) and what it may do. */
export interface TokenPrincipal {
  tokenId: string;
  tokenName: string;
  userId: string | null;
  email: string | null;
  role: Role;
  scopes: TokenScope[];
  /** The token's tenants, fixed at creation: the catalog it serves is limited to them (absent: none). */
  tenants?: string[];
}

const DAY_MS = 86_400_000;

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export function parseScopes(raw: string | string[]): TokenScope[] {
  const list = (Array.isArray(raw) ? raw : raw.split(",")).map((s) => s.trim()).filter(Boolean);
  if (list.length === 0) throw new ServiceError("BAD_REQUEST", `A token needs at least one scope: ${TOKEN_SCOPES.join(", ")}.`);
  for (const s of list) {
    if (!(TOKEN_SCOPES as readonly string[]).includes(s)) throw new ServiceError("BAD_REQUEST", `Unknown scope "${s.slice(0, 40)}": use ${TOKEN_SCOPES.join(", ")}.`);
  }
  return [...new Set(list)].sort() as TokenScope[];
}

function toPublic(row: AccessToken, email: string | null): PublicToken {
  return {
    id: row.id,
    name: row.name,
    userId: row.userId,
    userEmail: email,
    createdBy: row.createdBy,
    scopes: row.scopes.split(",") as TokenScope[],
    prefix: row.prefix,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    lastUsedAt: row.lastUsedAt,
    tenants: tokenTenants(row),
  };
}

/** A stored token's tenants (a JSON list; null for none). */
const tokenTenants = (row: AccessToken): string[] => (row.tenants ? (JSON.parse(row.tenants) as string[]) : []);

export interface CreateTokenInput {
  name: string;
  scopes: TokenScope[] | string;
  /** Days until it expires; default 90, at most 366. */
  expiresInDays?: number;
  /** Whose token: the caller by default; another user or "machine" (no user) for administrators only. */
  forUserId?: string | "machine";
  /** The tenants it acts for; absent: all of `ceiling` (the owner's tenants at creation). */
  tenants?: readonly string[];
}

export async function createToken(
  db: Db,
  caller: TokenCaller,
  input: CreateTokenInput,
  by: Audited,
  now = new Date(),
  /** The tenants the token may carry (the owner's; for a machine token the creator's), "all" for the global admin. */
  ceiling: readonly string[] | "all" = [],
): Promise<{ token: string; info: PublicToken }> {
  const name = input.name.trim();
  if (!name || name.length > 80) throw new ServiceError("BAD_REQUEST", "A token needs a name of 1 to 80 characters.");
  const scopes = parseScopes(input.scopes);
  const days = input.expiresInDays ?? TOKEN_DEFAULT_EXPIRY_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > TOKEN_MAX_EXPIRY_DAYS) {
    throw new ServiceError("BAD_REQUEST", `The expiry is a whole number of days from 1 to ${TOKEN_MAX_EXPIRY_DAYS}.`);
  }
  const target = input.forUserId ?? caller.id;
  if (target !== caller.id && caller.role !== "admin") {
    throw new ServiceError("FORBIDDEN", "Only administrators can make machine tokens or tokens for another user.");
  }
  const userId = target === "machine" ? null : target;
  let email: string | null = null;
  if (userId) {
    const u = (await db.select().from(users).where(eq(users.id, userId)).limit(1))[0];
    if (!u) throw new ServiceError("NOT_FOUND", "No such user.");
    if (u.disabled) throw new ServiceError("BAD_REQUEST", `${u.email} is disabled; a token for them would not work.`);
    email = u.email;
  }
  const tenants = input.tenants ? tenantList(input.tenants) : ceiling === "all" ? [] : [...ceiling];
  const beyond = ceiling === "all" ? undefined : tenants.find((t) => !ceiling.includes(t));
  if (beyond !== undefined) {
    throw new ServiceError("FORBIDDEN", `tenant "${beyond.slice(0, 64)}" is not the token owner's: a token acts for at most its owner's tenants`, { code: "tenant.not-yours", tenant: beyond });
  }
  const token = TOKEN_PREFIX + randomBytes(TOKEN_SECRET_BYTES).toString("base64url");
  const row = {
    id: randomUUID(),
    name,
    userId,
    createdBy: caller.id,
    scopes: scopes.join(","),
    tokenHash: hashToken(token),
    prefix: token.slice(0, TOKEN_PREFIX.length + 6),
    createdAt: now,
    expiresAt: new Date(now.getTime() + days * DAY_MS),
    tenants: tenants.length ? JSON.stringify(tenants) : null,
  };
  await db.insert(accessTokens).values(row);
  by.audit.record({
    type: "token_created",
    actor: by.actor,
    outcome: "ok",
    details: { tokenId: row.id, name, forUser: email ?? "machine", scopes, tenants, expiresAt: row.expiresAt.toISOString() },
  });
  const saved = (await db.select().from(accessTokens).where(eq(accessTokens.id, row.id)).limit(1))[0]!;
  return { token, info: toPublic(saved, email) };
}

/** The caller's own tokens; an administrator with `all` sees every token (machine tokens included). */
export async function listTokens(db: Db, caller: TokenCaller, opts: { all?: boolean } = {}): Promise<PublicToken[]> {
  if (opts.all && caller.role !== "admin") throw new ServiceError("FORBIDDEN", "Only administrators can list every token.");
  const rows = await db
    .select({ t: accessTokens, email: users.email })
    .from(accessTokens)
    .leftJoin(users, eq(users.id, accessTokens.userId))
    .where(opts.all ? undefined : eq(accessTokens.userId, caller.id))
    .orderBy(desc(accessTokens.createdAt));
  return rows.map((r) => toPublic(r.t, r.email ?? null));
}

export async function revokeToken(db: Db, caller: TokenCaller, id: string, by: Audited, now = new Date()): Promise<PublicToken> {
  const row = (await db.select().from(accessTokens).where(eq(accessTokens.id, id)).limit(1))[0];
  // Someone else's token is "not found" to a non-admin: its existence is not theirs to learn.
  if (!row || (row.userId !== caller.id && caller.role !== "admin")) throw new ServiceError("NOT_FOUND", "No such token.");
  if (!row.revokedAt) {
    await db.update(accessTokens).set({ revokedAt: now }).where(and(eq(accessTokens.id, id), isNull(accessTokens.revokedAt)));
    by.audit.record({ type: "token_revoked", actor: by.actor, outcome: "ok", details: { tokenId: id, name: row.name, userId: row.userId ?? "machine" } });
  }
  const email = row.userId ? ((await db.select().from(users).where(eq(users.id, row.userId)).limit(1))[0]?.email ?? null) : null;
  return toPublic((await db.select().from(accessTokens).where(eq(accessTokens.id, id)).limit(1))[0]!, email);
}

/**
 * The principal behind an `Authorization: Bearer` header, or a ServiceError: UNAUTHORIZED for a missing,
 * unknown, expired or revoked token (one message, so a caller learns nothing about which), FORBIDDEN for a
 * valid token without the scope.
 */
export async function authenticateBearer(db: Db, authorization: string | null, scope: TokenScope, now = new Date()): Promise<TokenPrincipal> {
  const m = /^bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  const refused = new ServiceError("UNAUTHORIZED", "A valid access token is needed (Authorization: Bearer omf_…).");
  if (!m) throw refused;
  const row = (await db.select().from(accessTokens).where(eq(accessTokens.tokenHash, hashToken(m[1]!))).limit(1))[0];
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt.getTime() <= now.getTime())) throw refused;
  let email: string | null = null;
  let role: Role = "viewer";
  if (row.userId) {
    const u = (await db.select().from(users).where(eq(users.id, row.userId)).limit(1))[0];
    if (!u || u.disabled) throw refused;
    email = u.email;
    role = u.role;
  }
  const scopes = row.scopes.split(",") as TokenScope[];
  if (!scopes.includes(scope)) throw new ServiceError("FORBIDDEN", `This token lacks the ${scope} scope.`);
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= TOKEN_LAST_USED_RESOLUTION_MS) {
    await db.update(accessTokens).set({ lastUsedAt: now }).where(eq(accessTokens.id, row.id));
  }
  return { tokenId: row.id, tokenName: row.name, userId: row.userId, email, role, scopes, tenants: tokenTenants(row) };
}
