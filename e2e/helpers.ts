import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type Cookie, expect, type Page } from "@playwright/test";
import config from "../playwright.config";
import { loadConfig } from "../sample-app/src/config";
import { createLogger } from "../sample-app/src/logger";
import { startApp, type RunningApp } from "../sample-app/src/server";
import { startServer, type StartedServer } from "../scripts/lib/app-server";

/**
 * What the browser tests share: the headless admin of the e2e server (playwright.config.ts), signing in, axe, REST
 * calls that fail loudly, and a server of one's own with the sample app.
 */
export const ADMIN = { email: "admin@e2e.flowbench.test", password: "e2e-admin-password" };
export const ADMIN_TOKEN = "e2e_admin_token_0123456789abcdef";
/** the configured e2e server (playwright.config.ts's baseURL) */
export const E2E_BASE = config.use!.baseURL!;
/** where every spec puts the screenshots of the states it covers */
export const SHOTS = ".tmp/screenshots";

/** this worker's sessions, by server and e-mail: the cookies the login page gave */
const sessions = new Map<string, Cookie[]>();

/**
 * Signs in (on `base`, a server a test started itself, or the configured one). The first time in a worker for that
 * server and person it walks the real login page and lands on /builder; after that it gives the page's context the
 * session that walk got, and leaves the page where it was (the test goes where it needs). Every test used to walk
 * the login page and load the builder, the heaviest page, before going where it needed; with one walk of each flow for
 * both sizes (atBothSizes) the quiet browser stage went from 274 to 235 s. The login page itself is tested in
 * login.spec.ts.
 */
export async function signIn(page: Page, who: { email: string; password: string } = ADMIN, base = "") {
  const key = `${base || E2E_BASE} ${who.email}`;
  const saved = sessions.get(key);
  if (saved) {
    await page.context().addCookies(saved);
    return;
  }
  await page.goto(`${base}/login`);
  await page.getByLabel("E-mail").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/builder$/);
  sessions.set(key, await page.context().cookies(base || E2E_BASE));
}

/** No serious or critical axe violation on the page as it is now (open dialogs included); a failure names the elements. */
export async function expectNoSeriousA11yViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).analyze();
  const serious = axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const found = serious.map(
    (v) => `${v.id}: ${v.help} @ ${v.nodes.map((n) => `${n.target.join(" ")} ${n.html.slice(0, 160)}`).join(", ")}`,
  );
  // the violations lead the message, so the one line a CI summary keeps of a failure names them
  expect(found, `serious axe violations at ${page.url()}: ${found.join(" | ")}`).toEqual([]);
}

/**
 * A screenshot for people to look at, in SHOTS. `npm test` skips them (it sets E2E_SCREENSHOTS=0): they assert
 * nothing, and about 130 of them cost the browser stage 40 of its 464 CPU s (measured quietly, whole machine). Run
 * `npm run test:e2e` to take them; Playwright's own screenshot of a failing test is kept either way.
 */
export async function shot(page: Page, opts: NonNullable<Parameters<Page["screenshot"]>[0]>) {
  if (process.env.E2E_SCREENSHOTS === "0") return;
  await page.screenshot(opts);
}

/** The two sizes every page state is looked at: a laptop and a small screen. */
export const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
] as const;
type Size = (typeof SIZES)[number];

/**
 * The page as it is now, at each of SIZES in turn (the viewport is left at the last): `prepare` (a scroll, the pointer
 * moved away), a full-page screenshot `${SHOTS}/${name}-${width}x${height}.png`, no serious axe violation, and `check`
 * (an assertion on the layout at that size). A spec walks its flow once and looks at each state at both sizes here,
 * instead of walking the whole flow again per size (three specs did: a third of their time, the same behaviour).
 */
export async function atBothSizes(
  page: Page,
  name: string,
  opts: { prepare?: (size: Size) => Promise<void>; check?: (size: Size) => Promise<void>; axe?: boolean } = {},
) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await opts.prepare?.(size);
    await shot(page, { path: `${SHOTS}/${name}-${size.width}x${size.height}.png`, fullPage: true });
    if (opts.axe !== false) await expectNoSeriousA11yViolations(page);
    await opts.check?.(size);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * A REST caller with a bearer token. `call(method, path, body?)` returns the parsed body of a 2xx answer and throws
 * on any other status with the method, path, status and body in the message, so a setup call that fails can never
 * pass silently. `call.expectStatus(status, method, path, body?)` is the explicit variant for a call a test expects
 * to be answered with that exact status (an error, or exactly 200 rather than any 2xx): it asserts it and returns the
 * body.
 */
export type Api = {
  <T = Json>(method: Method, path: string, body?: unknown): Promise<T>;
  expectStatus: <T = Json>(status: number, method: Method, path: string, body?: unknown) => Promise<T>;
};

export function api(base: string = E2E_BASE, token: string = ADMIN_TOKEN): Api {
  const send = async (method: Method, p: string, body: unknown) => {
    const r = await fetch(`${base}${p}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    let json: Json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return { status: r.status, json, said: `${method} ${p}: ${r.status} ${text.slice(0, 2000)}` };
  };
  const call = (async (method: Method, p: string, body?: unknown) => {
    const r = await send(method, p, body);
    if (r.status < 200 || r.status > 299) throw new Error(r.said);
    return r.json;
  }) as Api;
  call.expectStatus = async (status, method, p, body) => {
    const r = await send(method, p, body);
    expect(r.status, r.said).toBe(status);
    return r.json;
  };
  return call;
}

/** A server of a spec's own (`next start` of the build on a fresh embedded database) with the meal-scenes sample app. */
export type OwnServer = StartedServer & {
  sample: RunningApp;
  /** REST as the server's admin (see `api`) */
  api: Api;
  /** signs in as the server's admin */
  signIn: (page: Page) => Promise<void>;
};

/**
 * Starts the meal-scenes sample app and a server of its own wired to it (webhooks to the sample app, the built-in
 * judge). `seedSampleAgent`: the seeded sample agent and its sets, waited for (start-up work may finish after the
 * first health answer); `env`: more environment for the server. Stop it in `afterAll` with `stop()` (the server, the
 * sample app and their data).
 */
export async function startOwnServer(
  name: string,
  { seedSampleAgent = false, env = {} }: { seedSampleAgent?: boolean; env?: Record<string, string> } = {},
): Promise<OwnServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `flowbench-${name}-`));
  let sample: RunningApp | undefined;
  let server: StartedServer | undefined;
  const stop = async () => {
    await server?.stop();
    await sample?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    sample = await startApp(
      { ...loadConfig({ DATABASE_URL: `pglite:${dir}/meal-scenes`, LOG_LEVEL: "error" }), port: 0 },
      { logger: createLogger("error") },
    );
    server = await startServer(name, `pglite:${dir}/app`, {
      WEBHOOK_BASE_URL: `http://127.0.0.1:${sample.port}`,
      EVAL_JUDGE: "builtin",
      ...(seedSampleAgent ? { FLOWBENCH_SEED_SAMPLE_AGENT: "on" } : {}),
      ...env,
    });
    fs.mkdirSync(SHOTS, { recursive: true });
    const call = api(server.url, server.adminToken);
    if (seedSampleAgent) {
      let last = "no answer yet";
      for (let i = 0; ; i++) {
        try {
          if ((await call("GET", "/api/eval/sets")).items.length) break;
          last = "no evaluation set yet";
        } catch (e) {
          last = String(e);
        }
        if (i >= 240)
          throw new Error(`${name}: the sample agent was not seeded within 60 s (${last}); log: ${server.logFile}`);
        await new Promise((res) => setTimeout(res, 250));
      }
    }
    const { adminEmail: email, adminPassword: password, url } = server;
    return { ...server, sample, api: call, signIn: (page) => signIn(page, { email, password }, url), stop };
  } catch (e) {
    await stop().catch(() => undefined);
    throw e;
  }
}
