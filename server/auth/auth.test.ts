import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb } from "../db/test-db";
import type { PrismaClient } from "../db/generated/client";
import { bootstrapAccess } from "./bootstrap";
import { generateToken, hashPassword, hashToken, verifyPassword } from "./crypto";
import { PERMISSIONS, ROLES, can } from "./roles";
import {
  authenticatePassword,
  createToken,
  createUser,
  principalFromSession,
  PRINCIPAL_TTL_MS,
  principalFromToken,
  revokeToken,
  updateUser,
} from "./service";
import { parseEnv } from "../core/env";

describe("password hashing", () => {
  it("uses scrypt with a random salt and verifies only the right password", async () => {
    const a = await hashPassword("correct horse");
    const b = await hashPassword("correct horse");
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("correct horse", a)).toBe(true);
    expect(await verifyPassword("correct horsE", a)).toBe(false);
    expect(await verifyPassword("x", "garbage")).toBe(false);
  });
  it("makes 256-bit tokens and stores only their hash", () => {
    const t = generateToken();
    expect(t).toMatch(/^fb_[A-Za-z0-9_-]{43}$/);
    expect(hashToken(t)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("roles", () => {
  it("admin can do everything, viewer only reads", () => {
    for (const p of Object.keys(PERMISSIONS) as Array<keyof typeof PERMISSIONS>) expect(can("admin", p)).toBe(true);
    expect(can("viewer", "builder.read")).toBe(true);
    expect(can("viewer", "builder.write")).toBe(false);
    expect(can("annotator", "eval.annotate")).toBe(true);
    expect(can("builder", "admin")).toBe(false);
    expect(ROLES).toEqual(["admin", "builder", "annotator", "viewer"]);
  });
});

describe("users, tokens and first start (embedded database)", () => {
  let db: PrismaClient;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await createTestDb());
  }, 60_000);
  afterAll(async () => close());

  it("first start creates an admin and prints a one-time password and token that work", async () => {
    const lines: string[] = [];
    await bootstrapAccess(db, parseEnv({}), (l) => lines.push(l));
    const out = lines.join("\n");
    const password = /Password:\s+(\S+)/.exec(out)?.[1];
    const token = /Admin API token:\s+(\S+)/.exec(out)?.[1];
    expect(password && token).toBeTruthy();
    expect(await authenticatePassword(db, "admin@flowbench.local", password!)).toMatchObject({ role: "admin" });
    expect(await principalFromToken(db, token!)).toMatchObject({ kind: "token", role: "admin" });
    // stored hashed, never in clear
    const row = await db.apiToken.findFirstOrThrow();
    expect(row.tokenHash).not.toContain(token!);
    // the second start prints nothing new
    const again: string[] = [];
    await bootstrapAccess(db, parseEnv({}), (l) => again.push(l));
    expect(again).toEqual([]);
  });

  it("headless init ensures the admin and that exact token, idempotently, restoring a revoked one", async () => {
    const env = parseEnv({
      FLOWBENCH_INIT_ADMIN_EMAIL: "Ops@Example.com",
      FLOWBENCH_INIT_ADMIN_PASSWORD: "ops-password",
      FLOWBENCH_INIT_API_TOKEN: "ci_token_0123456789abcdefghij",
    });
    await bootstrapAccess(db, env, () => undefined);
    await bootstrapAccess(db, env, () => undefined);
    expect(await principalFromToken(db, "ci_token_0123456789abcdefghij")).toMatchObject({ role: "admin" });
    expect(await db.user.count({ where: { email: "ops@example.com" } })).toBe(1);
    const row = await db.apiToken.findUniqueOrThrow({
      where: { tokenHash: hashToken("ci_token_0123456789abcdefghij") },
    });
    await revokeToken(db, row.id);
    expect(await principalFromToken(db, "ci_token_0123456789abcdefghij")).toBeNull();
    await bootstrapAccess(db, env, () => undefined);
    expect(await principalFromToken(db, "ci_token_0123456789abcdefghij")).toMatchObject({ role: "admin" });
  });

  it("refuses duplicate e-mails, disabled users and revoked tokens", async () => {
    const u = await createUser(db, { email: "Dup@Example.com", password: "password-1", role: "viewer" });
    await expect(
      createUser(db, { email: "dup@example.com", password: "password-2", role: "viewer" }),
    ).rejects.toMatchObject({ status: 409 });
    expect(await authenticatePassword(db, "dup@example.com", "password-1")).toBeTruthy();
    await updateUser(db, u.id, { disabled: true }, { kind: "token", tokenId: "t", userId: null, role: "admin" });
    expect(await authenticatePassword(db, "dup@example.com", "password-1")).toBeNull();
    const t = await createToken(db, { name: "x", role: "builder" }, null);
    expect(await principalFromToken(db, t.token)).toMatchObject({ role: "builder" });
    await revokeToken(db, t.id);
    expect(await principalFromToken(db, t.token)).toBeNull();
    expect(await principalFromToken(db, "")).toBeNull();
  });

  it("a token checked less than PRINCIPAL_TTL_MS ago is not looked up again; a change made elsewhere shows after it", async () => {
    const t = await createToken(db, { name: "cached", role: "viewer" }, null);
    expect(await principalFromToken(db, t.token)).toMatchObject({ role: "viewer" });
    // revoked behind this process's back (another instance's write): the cached principal stands until it expires
    await db.apiToken.update({ where: { id: t.id }, data: { revokedAt: new Date() } });
    expect(await principalFromToken(db, t.token)).toMatchObject({ role: "viewer" });
    await new Promise((r) => setTimeout(r, PRINCIPAL_TTL_MS + 50));
    expect(await principalFromToken(db, t.token)).toBeNull();
    // this process's own revocation and owner changes take effect at once (revokeToken, updateUser forget the cache)
    const u = await createUser(db, { email: "cache-owner@example.com", password: "password-1", role: "builder" });
    const owned = await createToken(db, { name: "owned-cached", role: "builder" }, u.id);
    expect(await principalFromToken(db, owned.token)).toMatchObject({ userId: u.id });
    await updateUser(db, u.id, { disabled: true }, { kind: "token", tokenId: "t", userId: null, role: "admin" });
    expect(await principalFromToken(db, owned.token)).toBeNull();
    await updateUser(db, u.id, { disabled: false }, { kind: "token", tokenId: "t", userId: null, role: "admin" });
    expect(await principalFromToken(db, owned.token)).toMatchObject({ userId: u.id });
    await revokeToken(db, owned.id);
    expect(await principalFromToken(db, owned.token)).toBeNull();
  });

  it("a burst of calls with an uncached token makes one lookup; a revocation while it is in flight is not undone by it", async () => {
    const t = await createToken(db, { name: "burst", role: "annotator" }, null);
    const reads: string[] = [];
    const counted = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop !== "apiToken") return Reflect.get(target, prop, receiver);
        return new Proxy(target.apiToken, {
          get(d, op, r) {
            const f = Reflect.get(d, op, r);
            return typeof f === "function"
              ? (...args: unknown[]) => {
                  reads.push(String(op));
                  return f.apply(d, args);
                }
              : f;
          },
        });
      },
    });
    const answers = await Promise.all(Array.from({ length: 50 }, () => principalFromToken(counted, t.token)));
    expect(answers.every((a) => a?.kind === "token" && a.tokenId === t.id)).toBe(true);
    // one read of the token and one write of its lastUsedAt, not fifty of each
    expect(reads).toEqual(["findUnique", "update"]);

    // revoked by this process while a lookup (begun before) is in flight: callers after the revocation look again
    await new Promise((r) => setTimeout(r, PRINCIPAL_TTL_MS + 50));
    const inFlight = principalFromToken(db, t.token);
    await revokeToken(db, t.id);
    expect(await principalFromToken(db, t.token)).toBeNull();
    await inFlight; // whatever it read, it may not put the token back in the cache
    expect(await principalFromToken(db, t.token)).toBeNull();
  });

  it("a disabled user's tokens stop working at once and work again when the user is re-enabled", async () => {
    const admin = { kind: "token" as const, tokenId: "t", userId: null, role: "admin" as const };
    const u = await createUser(db, { email: "owner@example.com", password: "password-1", role: "builder" });
    const t = await createToken(db, { name: "owned", role: "builder" }, u.id);
    expect(await principalFromToken(db, t.token)).toMatchObject({ kind: "token", userId: u.id, role: "builder" });
    await updateUser(db, u.id, { disabled: true }, admin);
    expect(await principalFromToken(db, t.token)).toBeNull();
    await updateUser(db, u.id, { disabled: false }, admin);
    expect(await principalFromToken(db, t.token)).toMatchObject({ userId: u.id });
  });

  it("a new password or role ends the person's browser sessions at once; a session signed in afterwards works (issue 28, item 4)", async () => {
    const admin = { kind: "token" as const, tokenId: "t", userId: null, role: "admin" as const };
    const u = await createUser(db, { email: "sessions@example.com", password: "password-1", role: "annotator" });
    const signedIn = { id: u.id, authAt: Date.now() };
    const legacy = { id: u.id }; // a cookie issued before sessions said when they signed in
    expect(await principalFromSession(db, signedIn)).toMatchObject({ kind: "user", userId: u.id, role: "annotator" });
    expect(await principalFromSession(db, legacy)).toMatchObject({ userId: u.id });
    // an unrelated change (re-enabling, the same role) ends nothing
    await updateUser(db, u.id, { role: "annotator", disabled: false }, admin);
    expect(await principalFromSession(db, signedIn)).toMatchObject({ userId: u.id });

    await new Promise((r) => setTimeout(r, 5));
    await updateUser(db, u.id, { password: "password-2" }, admin);
    expect(await principalFromSession(db, signedIn)).toBeNull();
    expect(await principalFromSession(db, legacy)).toBeNull();
    const afterPassword = { id: u.id, authAt: Date.now() + 1 };
    expect(await principalFromSession(db, afterPassword)).toMatchObject({ userId: u.id });
    expect(await authenticatePassword(db, "sessions@example.com", "password-2")).not.toBeNull();

    await new Promise((r) => setTimeout(r, 5));
    await updateUser(db, u.id, { role: "builder" }, admin);
    expect(await principalFromSession(db, afterPassword)).toBeNull();
    expect(await principalFromSession(db, { id: u.id, authAt: Date.now() + 1 })).toMatchObject({ role: "builder" });
    // disabling still ends every session
    await updateUser(db, u.id, { disabled: true }, admin);
    expect(await principalFromSession(db, { id: u.id, authAt: Date.now() + 1 })).toBeNull();
  });

  it("an admin cannot lock themself out", async () => {
    const me = await createUser(db, { email: "me@example.com", password: "password-1", role: "admin" });
    await expect(
      updateUser(db, me.id, { disabled: true }, { kind: "user", userId: me.id, email: me.email, role: "admin" }),
    ).rejects.toMatchObject({
      code: "SELF_LOCKOUT",
    });
  });
});

describe("next-auth log", () => {
  it("one line per error, no stack (a forged session cookie would otherwise print a stack per request)", async () => {
    const { authLogger } = await import("./nextauth");
    const lines: string[] = [];
    const orig = console.error;
    console.error = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
    try {
      const err = new Error("Invalid Compact JWE\nsecond line");
      authLogger.error("JWT_SESSION_ERROR", { error: err, message: err.message });
      authLogger.error("JWT_SESSION_ERROR", err);
    } finally {
      console.error = orig;
    }
    expect(lines).toEqual([
      "[auth] JWT_SESSION_ERROR: Invalid Compact JWE",
      "[auth] JWT_SESSION_ERROR: Invalid Compact JWE",
    ]);
  });
});
