import { env } from "../core/env";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";

/**
 * The login throttle: sign-in attempts counted per account (the e-mail, whether or not it exists) and per client
 * address (server/core/client-address.ts), in the database (table `LoginThrottle`) so every instance behind a load
 * balancer applies the same limits. Each scope has free attempts; every attempt after them waits twice as long as the
 * one before (1 s, 2 s, 4 s, ...: the first wait is `LOGIN_THROTTLE_FIRST_WAIT_SECONDS`, 1 by default), never more
 * than 15 minutes, so a person is never locked out for long, and an
 * attempt refused for waiting does not lengthen the wait. A successful sign-in resets the account's counter; an
 * address's counter forgets after an hour without a failure (a success from it does not count against it), an
 * account's after a day.
 *
 * An attempt is counted when it begins, in the same statement that checks the wait (a row lock serialises attempts
 * on one key), so attempts sent in parallel cannot all pass before the first failure is recorded; a success then
 * gives its count back.
 */
export const LOGIN_THROTTLE = {
  account: { freeAttempts: 5, forgetAfterSeconds: 24 * 60 * 60 },
  address: { freeAttempts: 20, forgetAfterSeconds: 60 * 60 },
  maxWaitSeconds: 15 * 60,
} as const;

/** The wait after the first attempt over the free ones (the setting; 1 s by default). */
const firstWaitSeconds = () => env().LOGIN_THROTTLE_FIRST_WAIT_SECONDS;

export type ThrottleScope = "account" | "address";

/** The wait imposed after the `failures`-th failure in a row of a scope: 0 within its free attempts. */
export function waitAfter(failures: number, scope: ThrottleScope): number {
  const over = failures - LOGIN_THROTTLE[scope].freeAttempts;
  if (over < 0) return 0;
  return Math.min(LOGIN_THROTTLE.maxWaitSeconds, firstWaitSeconds() * 2 ** Math.min(over, 30));
}

export const throttleKey = {
  account: (email: string) => `account:${email.trim().toLowerCase()}`,
  address: (address: string) => `address:${address}`,
};

const at = (d: Date) => Prisma.sql`CAST(${d.toISOString()} AS timestamp(3))`;

/** The wait (SQL) after `count` failures of a scope, as the instant it ends: `waitAfter` in SQL. */
function blockedUntilSql(count: Prisma.Sql, scope: ThrottleScope, now: Date): Prisma.Sql {
  const { freeAttempts } = LOGIN_THROTTLE[scope];
  return Prisma.sql`CASE WHEN ${count} >= ${freeAttempts} THEN ${at(now)} + make_interval(secs => LEAST(${LOGIN_THROTTLE.maxWaitSeconds}::float8, ${firstWaitSeconds()}::float8 * power(2::float8, LEAST(${count} - ${freeAttempts}, 30)))) END`;
}

/**
 * Counts an attempt on `key` unless it must wait: true when counted, false when the key is waiting (nothing
 * changed). A counter whose last attempt is older than the scope's memory starts again at 1.
 */
async function claim(db: Db, key: string, scope: ThrottleScope, now: Date): Promise<boolean> {
  const forgetBefore = new Date(now.getTime() - LOGIN_THROTTLE[scope].forgetAfterSeconds * 1000);
  const next = Prisma.sql`(CASE WHEN t."lastFailureAt" < ${at(forgetBefore)} THEN 1 ELSE t."failures" + 1 END)`;
  const rows = await db.$queryRaw<Array<{ failures: number }>>`
    INSERT INTO "LoginThrottle" AS t ("key", "failures", "lastFailureAt", "blockedUntil")
    VALUES (${key}, 1, ${at(now)}, ${blockedUntilSql(Prisma.sql`1`, scope, now)})
    ON CONFLICT ("key") DO UPDATE SET
      "failures" = ${next},
      "lastFailureAt" = ${at(now)},
      "blockedUntil" = ${blockedUntilSql(next, scope, now)}
    WHERE t."blockedUntil" IS NULL OR t."blockedUntil" <= ${at(now)}
    RETURNING t."failures"`;
  return rows.length > 0;
}

/** Gives back an attempt counted by `claim` that did not fail (or was not made): one failure fewer, and no wait
 * once the count is within the free attempts again. */
async function release(db: Db, key: string, scope: ThrottleScope): Promise<void> {
  await db.$executeRaw`
    UPDATE "LoginThrottle" SET
      "failures" = GREATEST("failures" - 1, 0),
      "blockedUntil" = CASE WHEN "failures" - 1 >= ${LOGIN_THROTTLE[scope].freeAttempts} THEN "blockedUntil" END
    WHERE "key" = ${key}`;
}

/** Whole seconds until every one of `keys` may try again (at least 1 while one waits). */
async function remainingWait(db: Db, keys: string[], now: Date): Promise<number> {
  const rows = await db.loginThrottle.findMany({
    where: { key: { in: keys }, blockedUntil: { gt: now } },
    select: { blockedUntil: true },
  });
  const until = Math.max(0, ...rows.map((r) => r.blockedUntil!.getTime()));
  return until > now.getTime() ? Math.max(1, Math.ceil((until - now.getTime()) / 1000)) : 0;
}

export type LoginAttempt = { email: string; address: string };

/**
 * Runs one sign-in attempt under the throttle: `verify` (the password check) runs only when neither the account nor
 * the address must wait. Returns `{ throttled: seconds }` when they must (nothing is counted, nothing verified),
 * else `verify`'s result (null: a failure, counted; a value: a success, which resets the account's counter).
 */
export async function throttledLogin<T>(
  db: Db,
  attempt: LoginAttempt,
  verify: () => Promise<T | null>,
  now = new Date(),
): Promise<{ throttled: number } | { result: T | null }> {
  const account = throttleKey.account(attempt.email);
  const address = throttleKey.address(attempt.address);
  if (!(await claim(db, address, "address", now))) return { throttled: await remainingWait(db, [address], now) };
  if (!(await claim(db, account, "account", now))) {
    await release(db, address, "address");
    return { throttled: await remainingWait(db, [account], now) };
  }
  let result: T | null;
  try {
    result = await verify();
  } catch (e) {
    await release(db, address, "address");
    await release(db, account, "account");
    throw e;
  }
  if (result === null) {
    // a failure stays counted; counters nobody has failed on for a day are dropped (the index keeps this cheap)
    await db.loginThrottle.deleteMany({
      where: { lastFailureAt: { lt: new Date(now.getTime() - LOGIN_THROTTLE.account.forgetAfterSeconds * 1000) } },
    });
    return { result };
  }
  await db.loginThrottle.deleteMany({ where: { key: account } });
  await release(db, address, "address");
  return { result };
}

/**
 * How a throttled sign-in reaches the browser: next-auth 4 turns an error thrown by `authorize` into `?error=<message>`
 * in the URL it answers with, which `signIn(..., { redirect: false })` returns as `error`. The route
 * (app/api/auth/[...nextauth]/route.ts) turns that answer into a 429 with `Retry-After`; the login form shows the wait.
 */
export const THROTTLED_ERROR = "LOGIN_THROTTLED";
export const throttledMessage = (seconds: number) => `${THROTTLED_ERROR}:${seconds}`;
export function throttledSeconds(error: string | null | undefined): number | null {
  const m = /^LOGIN_THROTTLED:(\d+)$/.exec(error ?? "");
  return m ? Number(m[1]) : null;
}
