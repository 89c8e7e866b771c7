import { z } from "zod";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { ApiError, errors } from "../core/errors";
import { generateToken, hashPassword, hashToken, tokenPrefix, verifyPassword } from "./crypto";
import { ROLES, type Role } from "./roles";

/** Who is calling: a signed-in user (session) or an API token. */
export type Principal =
  | { kind: "user"; userId: string; email: string; role: Role }
  | { kind: "token"; tokenId: string; userId: string | null; role: Role };

/**
 * Who did it, as stored in createdById / byId columns and as the owner of chat history: the user, or the API token
 * when it has no user (so two ownerless tokens never share a conversation or each other's name).
 */
export function actorRef(actor: Principal | null | undefined): string | null {
  if (!actor) return null;
  return actor.userId ?? (actor.kind === "token" ? `token:${actor.tokenId}` : null);
}

export const RoleSchema = z.enum(ROLES);

export const CreateUserInput = z.object({
  email: z
    .email()
    .max(254)
    .transform((e) => e.toLowerCase()),
  name: z.string().trim().max(120).optional(),
  password: z.string().min(8, "at least 8 characters").max(200),
  role: RoleSchema,
});

export const CreateTokenInput = z.object({
  name: z.string().trim().min(1).max(120),
  role: RoleSchema,
});

const publicUser = { id: true, email: true, name: true, role: true, disabledAt: true, createdAt: true } as const;
const publicToken = {
  id: true,
  name: true,
  prefix: true,
  role: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
  ownerId: true,
} as const;

export async function createUser(db: Db, input: z.input<typeof CreateUserInput>) {
  const data = CreateUserInput.parse(input);
  try {
    return await db.user.create({
      data: { email: data.email, name: data.name, role: data.role, passwordHash: await hashPassword(data.password) },
      select: publicUser,
    });
  } catch (e) {
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002") {
      throw new ApiError(409, "CONFLICT", `A user with e-mail ${data.email} already exists`);
    }
    throw e;
  }
}

export function listUsers(db: Db) {
  return db.user.findMany({ select: publicUser, orderBy: { createdAt: "asc" } });
}

export async function updateUser(
  db: Db,
  id: string,
  patch: { role?: Role; disabled?: boolean; password?: string },
  actor: Principal,
) {
  const user = await db.user.findUnique({ where: { id } });
  if (!user) throw errors.notFound(`User ${id}`);
  if (actor.kind === "user" && actor.userId === id && (patch.disabled || (patch.role && patch.role !== "admin"))) {
    throw errors.badRequest("SELF_LOCKOUT", "You cannot disable yourself or remove your own admin role");
  }
  const updated = await db.user.update({
    where: { id },
    data: {
      role: patch.role,
      disabledAt: patch.disabled === undefined ? undefined : patch.disabled ? new Date() : null,
      passwordHash: patch.password ? await hashPassword(patch.password) : undefined,
      // a new password or role ends the person's browser sessions at once (every instance reads this per request)
      sessionsValidFrom: patch.password || (patch.role && patch.role !== user.role) ? new Date() : undefined,
    },
    select: publicUser,
  });
  forgetPrincipals(); // a disabled owner's tokens stop at once here, within PRINCIPAL_TTL_MS elsewhere
  return updated;
}

/** Checks an e-mail/password pair; null on any mismatch (never says which part was wrong). */
export async function authenticatePassword(db: Db, email: string, password: string) {
  const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() } });
  if (!user || user.disabledAt) {
    await hashPassword(password); // same cost either way, so timing does not reveal which e-mails exist
    return null;
  }
  return (await verifyPassword(password, user.passwordHash)) ? user : null;
}

/** Creates a token; the plain value is returned exactly once. */
export async function createToken(db: Db, input: z.input<typeof CreateTokenInput>, ownerId: string | null) {
  const data = CreateTokenInput.parse(input);
  const token = generateToken();
  const row = await db.apiToken.create({
    data: { name: data.name, role: data.role, tokenHash: hashToken(token), prefix: tokenPrefix(token), ownerId },
    select: publicToken,
  });
  return { ...row, token };
}

export function listTokens(db: Db) {
  return db.apiToken.findMany({ select: publicToken, orderBy: { createdAt: "desc" } });
}

export async function revokeToken(db: Db, id: string) {
  const row = await db.apiToken.findUnique({ where: { id } });
  if (!row) throw errors.notFound(`Token ${id}`);
  if (row.revokedAt) return db.apiToken.findUniqueOrThrow({ where: { id }, select: publicToken });
  const revoked = await db.apiToken.update({ where: { id }, data: { revokedAt: new Date() }, select: publicToken });
  forgetPrincipals();
  return revoked;
}

/**
 * Bearer tokens this process resolved in the last PRINCIPAL_TTL_MS, by the token's hash: a request with a token
 * checked less than a second ago skips the database (every API call is authenticated; the lookup halved REST's
 * throughput). What changes who a token is (revoking it, disabling its owner or changing their role) empties the cache
 * of the instance that makes the change at once, and every other instance's within PRINCIPAL_TTL_MS, when its
 * entries expire. Unknown tokens are never cached (a caller trying tokens cannot fill it). On globalThis: Next.js
 * bundles the tRPC route (where admins revoke) apart from the REST routes, and both must see one cache.
 */
export const PRINCIPAL_TTL_MS = 1_000;
const PRINCIPAL_CACHE_MAX = 10_000;
const CACHE = Symbol.for("flowbench.principalCache");
type CachedPrincipal = { principal: Principal; until: number };
function principalCache(): Map<string, CachedPrincipal> {
  const g = globalThis as typeof globalThis & { [CACHE]?: Map<string, CachedPrincipal> };
  g[CACHE] ??= new Map();
  return g[CACHE];
}
/** Forgets every cached token principal (after a write that changes who a token is). */
export function forgetPrincipals(): void {
  principalCache().clear();
  // a lookup that read the token before this write may neither answer later callers nor fill the cache
  lookups().clear();
  generation.n++;
}

/**
 * Resolves a bearer token to a principal; null when unknown, revoked, or owned by a disabled user (disabling a
 * person stops their tokens at once, like their browser sessions; re-enabling them restores the tokens).
 */
export async function principalFromToken(db: Db, token: string): Promise<Principal | null> {
  if (!token || token.length > 512) return null;
  const hash = hashToken(token);
  const cache = principalCache();
  const now = Date.now();
  const hit = cache.get(hash);
  if (hit && hit.until > now) return hit.principal;
  // one lookup per token at a time: a burst of calls with a token not (or no longer) cached waits for the first one's
  // lookup instead of each reading the token and writing its lastUsedAt (a thousand at once did)
  const pending = lookups().get(hash);
  if (pending) return pending;
  const lookup = lookUpToken(db, hash, now).finally(() => {
    if (lookups().get(hash) === lookup) lookups().delete(hash);
  });
  lookups().set(hash, lookup);
  return lookup;
}

const LOOKUPS = Symbol.for("flowbench.principalLookups");
function lookups(): Map<string, Promise<Principal | null>> {
  const g = globalThis as typeof globalThis & { [LOOKUPS]?: Map<string, Promise<Principal | null>> };
  g[LOOKUPS] ??= new Map();
  return g[LOOKUPS];
}
/** Counts forgetPrincipals() calls (on globalThis like the cache): a lookup caches only if none came meanwhile. */
const generation: { n: number } = ((globalThis as Record<symbol, unknown>)[Symbol.for("flowbench.principalGen")] ??= {
  n: 0,
}) as { n: number };

async function lookUpToken(db: Db, hash: string, now: number): Promise<Principal | null> {
  const cache = principalCache();
  const startedIn = generation.n;
  const row = await db.apiToken.findUnique({
    where: { tokenHash: hash },
    include: { owner: { select: { disabledAt: true } } },
  });
  if (!row || row.revokedAt || row.owner?.disabledAt) {
    cache.delete(hash);
    return null;
  }
  // lastUsedAt is informational: update at most once a minute to keep token checks off the write path.
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > 60_000) {
    await db.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } }).catch(() => undefined);
  }
  const principal: Principal = { kind: "token", tokenId: row.id, userId: row.ownerId, role: row.role };
  if (cache.size >= PRINCIPAL_CACHE_MAX) {
    for (const [k, v] of cache) if (v.until <= now) cache.delete(k);
    if (cache.size >= PRINCIPAL_CACHE_MAX) cache.clear();
  }
  if (generation.n === startedIn) cache.set(hash, { principal, until: now + PRINCIPAL_TTL_MS });
  return principal;
}

/**
 * Who a conversation belongs to (chat history, and the createdById of a chat's trace): a person's browser session is
 * that person; an API token is its own principal, whoever made it, so a viewer token an admin made never reads or
 * writes the admin's conversation.
 */
export function conversationRef(actor: Principal | null | undefined): string | null {
  if (!actor) return null;
  return actor.kind === "token" ? `token:${actor.tokenId}` : actor.userId;
}

/**
 * Resolves a browser session to a principal, re-reading role and disabled state from the database. A session that
 * signed in before the user's `sessionsValidFrom` (a password or role change since) is over, like a disabled user's;
 * so is one that does not say when it signed in (issued before this rule existed) once such a change happened.
 */
export async function principalFromSession(
  db: Db,
  session: { id: string; authAt?: number },
): Promise<Principal | null> {
  const user = await db.user.findUnique({ where: { id: session.id } });
  if (!user || user.disabledAt) return null;
  if (user.sessionsValidFrom && !(session.authAt !== undefined && session.authAt >= user.sessionsValidFrom.getTime()))
    return null;
  return { kind: "user", userId: user.id, email: user.email, role: user.role };
}

/**
 * What people read for stored actor references (createdById, verdictById, byId columns): a user id gives the
 * user's name or e-mail, `token:<id>` gives `token <name>`; unknown references map to themselves. One query per kind.
 */
export async function actorLabels(db: Db, refs: Iterable<string | null | undefined>): Promise<Map<string, string>> {
  const all = [...new Set([...refs].filter((r): r is string => !!r))];
  const tokenIds = all.filter((r) => r.startsWith("token:")).map((r) => r.slice(6));
  const userIds = all.filter((r) => !r.startsWith("token:"));
  const [users, tokens] = await Promise.all([
    userIds.length
      ? db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true, name: true } })
      : [],
    tokenIds.length ? db.apiToken.findMany({ where: { id: { in: tokenIds } }, select: { id: true, name: true } }) : [],
  ]);
  const out = new Map(all.map((r) => [r, r]));
  for (const u of users) out.set(u.id, u.name || u.email);
  for (const t of tokens) out.set(`token:${t.id}`, `token ${t.name}`);
  return out;
}
