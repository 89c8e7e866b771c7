import { describe, expect, it } from "vitest";
import { servers, trpc } from "./client";
import { LOGIN_FIRST_WAIT_SECONDS as FIRST } from "./settings";

/**
 * The login throttle over real HTTP (issue 28, item 5: 40 wrong passwords in a row, then the right one signed in):
 * next-auth's credentials callback, as the login page's `signIn(..., { redirect: false })` calls it. The servers run
 * with TRUSTED_PROXY_HOPS=1 and a first wait of FIRST seconds (global-setup.ts, settings.ts), so each test fails from an address of its own (X-Forwarded-For's last
 * entry); its state is SQL, so this runs on both databases (the rule itself: server/auth/throttle.test.ts).
 */
type Attempt = { status: number; retryAfter: string | null; body: any; session: boolean };

async function attempt(base: string, email: string, password: string, headers: Record<string, string>) {
  const csrfRes = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const cookie = csrfRes.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, ...headers },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
  });
  return {
    status: res.status,
    retryAfter: res.headers.get("retry-after"),
    body: await res.json(),
    session: res.headers.getSetCookie().some((c) => c.startsWith("next-auth.session-token=")),
  } satisfies Attempt;
}

const errorOf = (a: Attempt) => new URL(a.body.url).searchParams.get("error");
const sleep = (s: number) => new Promise((r) => setTimeout(r, s * 1000 + 100));

for (const server of servers()) {
  describe(`login throttle on ${server.name}`, () => {
    it("the issue's repro: 40 wrong passwords in a row, then the right one is 429 with Retry-After, not a session", async () => {
      const email = `guessed-${crypto.randomUUID().slice(0, 8)}@example.com`;
      await trpc(server).admin.users.create.mutate({ email, password: "the-right-password", role: "viewer" });
      // a fresh address of its own per attempt, so only the account's count holds the guesser
      const headers = () => ({ "x-forwarded-for": `198.51.100.${Math.floor(Math.random() * 250) + 1}` });
      const statuses: number[] = [];
      let last: Attempt | undefined;
      let slowest = 0; // ms, of one attempt
      for (let i = 0; i < 40; i++) {
        const t = Date.now();
        last = await attempt(server.url, email, "wrong-password", headers());
        slowest = Math.max(slowest, Date.now() - t);
        expect(last.session).toBe(false);
        statuses.push(last.status);
      }
      // the first 5 were checked; after that the account waits and a refused attempt checks no password (a wait that
      // ran out on a loaded machine lets one more be checked, which doubles the wait)
      expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(8);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(32);
      expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
      // the right one must arrive while a wait runs: on a loaded machine the last wait may be a second from its end
      // (the right password then signed in, as it should after a wait), and one attempt (two requests) took over 3 s
      // under load 24 (stop 36). Wrong ones go on until one leaves a wait of at least 3 s plus twice what the slowest
      // attempt took; a checked one (401) starts a longer wait at once (the wait doubles).
      const margin = () => 3 + Math.ceil((2 * slowest) / 1000);
      for (let i = 0; i < 30 && !(last!.status === 429 && Number(last!.retryAfter) >= margin()); i++) {
        const t = Date.now();
        last = await attempt(server.url, email, "wrong-password", headers());
        slowest = Math.max(slowest, Date.now() - t);
        expect(last.session).toBe(false);
      }
      const right = await attempt(server.url, email, "the-right-password", headers());
      expect(right.status).toBe(429);
      expect(right.session).toBe(false);
      expect(Number(right.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(right.body.error).toMatchObject({
        code: "LOGIN_THROTTLED",
        details: [{ retryAfterSeconds: Number(right.retryAfter) }],
      });
    });

    it("5 wrong passwords, then the right one is 429 with Retry-After; the wait grows; after it the right one signs in", async () => {
      const email = `throttled-${crypto.randomUUID().slice(0, 8)}@example.com`;
      await trpc(server).admin.users.create.mutate({ email, password: "the-right-password", role: "viewer" });
      const from = `203.0.113.${Math.floor(Math.random() * 200) + 1}`;
      let n = 0;
      // the client's own X-Forwarded-For entries and a forged x-flowbench-client-address change nothing: the address
      // is the entry the (one) trusted proxy added
      const headers = () => ({
        "x-forwarded-for": `6.6.6.${n}, ${from}`,
        "x-flowbench-client-address": `9.9.9.${n++}`,
      });
      for (let i = 0; i < 5; i++) {
        const wrong = await attempt(server.url, email, "wrong-password", headers());
        expect(wrong.status).toBe(401);
        expect(errorOf(wrong)).toBe("CredentialsSignin");
      }
      const refused = await attempt(server.url, email, "the-right-password", headers());
      expect(refused.status).toBe(429);
      expect(refused.session).toBe(false);
      // the wait started when the 5th attempt began, so a little of it may have passed
      const wait = Number(refused.retryAfter);
      expect(wait).toBeGreaterThanOrEqual(FIRST - 1);
      expect(wait).toBeLessThanOrEqual(FIRST);
      expect(refused.body.error).toEqual({
        code: "LOGIN_THROTTLED",
        message: `Too many sign-in attempts; try again in ${wait} s`,
        details: [{ retryAfterSeconds: wait }],
      });
      expect(errorOf(refused)).toBe(`LOGIN_THROTTLED:${wait}`); // what signIn(..., { redirect: false }) returns as `error`

      // the 6th failure, once the wait is over, doubles it
      await sleep(wait);
      expect((await attempt(server.url, email, "wrong-password", headers())).status).toBe(401);
      const longer = await attempt(server.url, email, "the-right-password", headers());
      expect(longer.status).toBe(429);
      expect(Number(longer.retryAfter)).toBeGreaterThan(FIRST);
      expect(Number(longer.retryAfter)).toBeLessThanOrEqual(2 * FIRST);

      // another account from the same address is not held by this one's failures
      const other = await attempt(server.url, server.adminEmail, server.adminPassword, headers());
      expect(other.status).toBe(200);
      expect(other.session).toBe(true);

      await sleep(Number(longer.retryAfter));
      const signedIn = await attempt(server.url, email, "the-right-password", headers());
      expect(signedIn.status).toBe(200);
      expect(signedIn.session).toBe(true);
    });
  });
}
