import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../db/generated/client";
import { createTestDb } from "../db/test-db";
import { DB_LEGS, legDatabase } from "../db/test-legs";
import { clientAddress, normalizeClientAddress } from "../core/client-address";
import { createUser } from "./service";
import { LOGIN_THROTTLE, throttledLogin, throttledSeconds, throttledMessage, waitAfter } from "./throttle";

/**
 * The login throttle (issue 28, item 5: 40 wrong passwords in a row, then the right one signed in). Its state is SQL
 * (one table, counted in one statement per key), so this runs on the embedded database and on PostgreSQL (skipped
 * with a notice when none is reachable). Time is the `now` each attempt is given, as instances pass their clock.
 */

describe("the back-off rule", () => {
  it("is free for 5 account failures (20 per address), then doubles from 1 s up to 15 minutes", () => {
    expect([1, 4, 5, 6, 7, 14, 15, 16, 100].map((n) => waitAfter(n, "account"))).toEqual([
      0, 0, 1, 2, 4, 512, 900, 900, 900,
    ]);
    expect([19, 20, 21].map((n) => waitAfter(n, "address"))).toEqual([0, 1, 2]);
    expect(LOGIN_THROTTLE.maxWaitSeconds).toBe(900);
    expect(throttledSeconds(throttledMessage(37))).toBe(37);
    expect(throttledSeconds("CredentialsSignin")).toBeNull();
  });

  it("counts the socket's address, or X-Forwarded-For's entry of the outermost trusted proxy; IPv6 by /64", () => {
    expect(clientAddress("::ffff:10.1.2.3", "6.6.6.6", 0)).toBe("10.1.2.3"); // not trusted: ignored
    expect(clientAddress("10.0.0.9", "6.6.6.6, 203.0.113.7", 1)).toBe("203.0.113.7"); // the client's own entry is not
    expect(clientAddress("10.0.0.9", "6.6.6.6, 203.0.113.7, 10.0.0.8", 2)).toBe("203.0.113.7");
    expect(clientAddress("10.0.0.9", undefined, 1)).toBe("10.0.0.9");
    expect(normalizeClientAddress("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(normalizeClientAddress("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(normalizeClientAddress("[2001:db8::1]:443")).toBe("2001:db8:0:0::/64");
    expect(normalizeClientAddress("203.0.113.7:5000")).toBe("203.0.113.7");
    expect(normalizeClientAddress(undefined)).toBe("unknown");
  });
});

describe.each(DB_LEGS)("the login throttle on the $name", (leg) => {
  let db: PrismaClient;
  const { skip } = legDatabase(leg, {
    open: (url) => createTestDb(url),
    use: (d) => {
      db = d.db;
    },
    prefix: "flowbench_throttle",
    what: "the login throttle tests",
  });

  const PASSWORD = "right-password";
  const T0 = Date.parse("2026-11-27T10:00:00.000Z");
  const at = (seconds: number) => new Date(T0 + seconds * 1000);
  let n = 0;
  /** A fresh person (e-mail, password) and client address per test. */
  async function person() {
    n++;
    const email = `person${n}-${leg.pg ? "pg" : "pglite"}@example.com`;
    await createUser(db, { email, password: PASSWORD, role: "viewer" });
    return { email, address: `10.${leg.pg ? 1 : 2}.${n}.1` };
  }
  /**
   * The password check the throttle guards. Its subject here is when the check runs, not scrypt (32 MiB and tens of
   * milliseconds a hash, about a hundred attempts per database): the person is read from the database and the
   * password compared as given. The real check behind the throttle is tests/integration/login-throttle.test.ts's.
   */
  const verify = async (email: string, password: string) => {
    const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() } });
    return user && password === PASSWORD ? user : null;
  };
  const login = (email: string, address: string, password: string, now: Date) =>
    throttledLogin(db, { email, address }, () => verify(email, password), now);
  const signedIn = (o: Awaited<ReturnType<typeof login>>) => ("result" in o ? o.result !== null : false);

  it.skipIf(skip)(
    "5 wrong passwords, then the right one is refused with the wait; the wait doubles up to 15 minutes; a success resets it",
    async () => {
      const { email, address } = await person();
      for (let i = 0; i < 5; i++) expect(await login(email, address, "wrong", at(0))).toEqual({ result: null });
      // the right password, at once: refused with the wait, not checked
      expect(await login(email, address, "right-password", at(0))).toEqual({ throttled: 1 });
      expect(await login(email, address, "right-password", at(0.4))).toEqual({ throttled: 1 });
      // each further failure (made once the wait is over) doubles the wait, up to the cap
      const waits: number[] = [];
      let t = 1;
      for (let failure = 6; failure <= 17; failure++) {
        expect(await login(email, address, "wrong", at(t))).toEqual({ result: null });
        const refused = await login(email, address, "right-password", at(t));
        expect("throttled" in refused).toBe(true);
        const wait = (refused as { throttled: number }).throttled;
        waits.push(wait);
        t += wait;
      }
      expect(waits).toEqual([2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900, 900]);
      // refused attempts do not lengthen the wait: half-way it is half as long
      expect(await login(email, address, "wrong", at(t - 450))).toEqual({ throttled: 450 });
      expect(await login(email, address, "right-password", at(t - 1))).toEqual({ throttled: 1 });
      // once it is over the right password signs in, and the account starts afresh (from another address: this one
      // has used 17 of its 20 free failures)
      expect(signedIn(await login(email, address, "right-password", at(t)))).toBe(true);
      const other = "198.51.100.77";
      for (let i = 0; i < 4; i++) expect(await login(email, other, "wrong", at(t))).toEqual({ result: null });
      expect(signedIn(await login(email, other, "right-password", at(t)))).toBe(true);
      expect(await db.loginThrottle.findUnique({ where: { key: `account:${email}` } })).toBeNull();
    },
  );

  it.skipIf(skip)(
    "the account waits from any address; another account from the same address is not locked before the address limit",
    async () => {
      const a = await person();
      const b = await person();
      for (let i = 0; i < 5; i++) await login(a.email, a.address, "wrong", at(0));
      // the account waits whichever address asks (a guesser spread over many addresses gains nothing)
      expect(await login(a.email, "198.51.100.1", "right-password", at(0))).toEqual({ throttled: 1 });
      // the same address signs in to another account
      expect(signedIn(await login(b.email, a.address, "right-password", at(0)))).toBe(true);
      // 20 failures from one address over many accounts (password spraying): then the address waits, on every account
      for (let i = 0; i < 15; i++)
        expect(await login(`sprayed${i}@example.com`, a.address, "wrong", at(0))).toEqual({ result: null });
      expect(await login(b.email, a.address, "right-password", at(0))).toEqual({ throttled: 1 });
      // elsewhere the account is not affected
      expect(signedIn(await login(b.email, "198.51.100.2", "right-password", at(0)))).toBe(true);
      // an unknown e-mail is throttled like a known one (the answer does not tell which exist)
      for (let i = 0; i < 5; i++) await login("nobody@example.com", `192.0.2.${i}`, "wrong", at(0));
      expect(await login("nobody@example.com", "192.0.2.99", "x", at(0))).toEqual({ throttled: 1 });
    },
  );

  it.skipIf(skip)(
    "successes from an address do not count against it; failures are forgotten after a while",
    async () => {
      const a = await person();
      const office = "203.0.113.50";
      // 30 people behind one address signing in: no wait
      for (let i = 0; i < 30; i++) expect(signedIn(await login(a.email, office, "right-password", at(i)))).toBe(true);
      // 4 failures on an account, a day passes: the account starts afresh (5 more are free)
      for (let i = 0; i < 4; i++) await login(a.email, office, "wrong", at(100));
      const day = LOGIN_THROTTLE.account.forgetAfterSeconds;
      for (let i = 0; i < 4; i++)
        expect(await login(a.email, office, "wrong", at(100 + day + 1))).toEqual({ result: null });
      expect(signedIn(await login(a.email, office, "right-password", at(100 + day + 1)))).toBe(true);
      // counters nobody failed on for a day are dropped
      await login("stale@example.com", "192.0.2.200", "wrong", at(0));
      await login("fresh@example.com", "192.0.2.201", "wrong", at(day + 10));
      expect(await db.loginThrottle.count({ where: { key: "account:stale@example.com" } })).toBe(0);
      expect(await db.loginThrottle.count({ where: { key: "account:fresh@example.com" } })).toBe(1);
    },
  );

  it.skipIf(skip)("attempts sent together cannot all pass before the first failure is counted", async () => {
    const a = await person();
    let verified = 0;
    const slowWrong = async () => {
      verified++;
      await new Promise((r) => setTimeout(r, 50));
      return null;
    };
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        throttledLogin(db, { email: a.email, address: `198.51.100.${100 + i}` }, slowWrong, at(0)),
      ),
    );
    expect(verified).toBe(5);
    expect(outcomes.filter((o) => "throttled" in o)).toHaveLength(15);
  });
});
