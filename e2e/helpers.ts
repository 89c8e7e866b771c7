import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import axeCore from "axe-core";
import { type Cookie, expect, type Page } from "@playwright/test";
import config from "../playwright.config";

/**
 * What the browser tests share: the headless admin of the e2e server (playwright.config.ts), signing in, axe, REST
 * calls that fail loudly, and a copy of the seeded sample agent with its golden set.
 */
/** the repository's root (the specs' working folder) */
export const ROOT = path.resolve(import.meta.dirname, "..");
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

/**
 * No serious or critical axe violation on the page as it is now (open dialogs included); a failure names the elements.
 *
 * axe runs asynchronously, so the page can change between choosing what to measure and measuring it: a CI run failed
 * on the set page's "Change judge…" (its one small button in a card's actions) measured at 3.35:1 (#848d9b on white:
 * its dimmed, disabled look) while axe had taken it for an enabled button (disabled buttons are not measured). So a
 * finding counts when a second scan, half a second later, makes it again on the same element: a real violation does,
 * a state caught between two renders does not.
 */
export async function expectNoSeriousA11yViolations(page: Page) {
  let found = await seriousViolations(page);
  if (found.length) {
    await page.waitForTimeout(500);
    const again = new Set((await seriousViolations(page)).map((f) => f.key));
    found = found.filter((f) => again.has(f.key));
  }
  const lines = found.map((f) => f.line);
  // the violations lead the message, so the one line a CI summary keeps of a failure names them
  expect(lines, `serious axe violations: ${lines.join(" | ")} (at ${page.url()})`).toEqual([]);
}

/** Each serious or critical violation per element: `key` (rule and element) and a line saying what axe found. */
async function seriousViolations(page: Page): Promise<Array<{ key: string; line: string }>> {
  await transitionsSettled(page);
  const axe = await axeViolations(page);
  // per element: where, axe's own finding first (for color-contrast the ratio and both colours), then its HTML
  return axe.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) =>
      v.nodes.map((n) => {
        const where = n.target.join(" ");
        const said = [...n.any, ...n.all, ...n.none].map((c) => c.message).join("; ") || v.help;
        return { key: `${v.id} ${where}`, line: `${v.id} @ ${where}: ${said} ${n.html.slice(0, 160)}` };
      }),
    );
}

type AxeResults = Awaited<ReturnType<AxeBuilder["analyze"]>>;
type AxeInPage = { axe?: { run: (context: Document, options: unknown) => Promise<AxeResults> } };
/**
 * axe-core's violations on the page: axe's own `axe.run` on the document, axe injected once per document (kept across
 * the app's client-side navigations). AxeBuilder.analyze() evaluated axe's 560 KB source in the page on every scan and
 * again in a blank page it opened to merge the frames' results: measured on eval-pages.spec.ts (12 scans), Chromium
 * took 52.6 CPU s with it, 42.6 this way and 37.4 with no scan at all. The same rules and the same results on a page
 * without frames; a page with frames (the app has none) still goes through AxeBuilder, which scans each frame.
 */
async function axeViolations(page: Page): Promise<AxeResults> {
  const options = { resultTypes: ["violations"] as const };
  if (page.frames().length > 1) return new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).analyze();
  if (!(await page.evaluate(() => typeof (window as AxeInPage).axe?.run === "function")))
    await page.evaluate(axeCore.source);
  return page.evaluate((o) => (window as AxeInPage).axe!.run(document, o), options);
}

/**
 * Waits for the page's finite animations to end before axe measures colours. The app's CSS cuts CSS transitions and
 * animations to 0.01 ms under reduced motion, which the browser tests ask for, so this guards what that rule does not
 * reach (animations started from script). Endless ones (spinners, skeletons) are left running: they would never end.
 */
async function transitionsSettled(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
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

/**
 * A copy of the seeded sample agent "Meal recommendation" (server/seed: its workflow calls the meal-scenes sample app,
 * the e2e server's second web server) under `name`, published as version 1, with a copy of its frozen golden set
 * (30 questions, 2 scripts, gate 26 of 30), made over REST as the seed makes them in process. Each spec that walks the
 * sample agent gets its own, so no spec depends on another's runs, verdicts or published versions.
 */
export async function createSampleAgent(call: Api, name: string) {
  const read = (file: string) =>
    JSON.parse(fs.readFileSync(path.join(ROOT, "server/seed/meal-recommendation", file), "utf8"));
  const agent = read("agent.json");
  const golden = read("golden-set.json");
  const agentId: string = (
    await call("POST", "/api/builder/agents", { name, description: agent.description, workflow: agent.workflow })
  ).agent.id;
  await call("POST", `/api/builder/agents/${agentId}/publish`, { version: 1 });
  const set = await call("POST", "/api/eval/sets", {
    agentId,
    name: golden.name,
    kind: golden.kind,
    gateThreshold: golden.gateThreshold,
  });
  await call("POST", `/api/eval/sets/${set.id}/versions/1/import`, {
    format: "json",
    content: JSON.stringify(golden.samples),
    mode: "replace",
  });
  await call("POST", `/api/eval/sets/${set.id}/versions/1/freeze`, {});
  const version = await call("GET", `/api/eval/sets/${set.id}/versions/1`);
  return { agentId, setId: set.id as string, versionId: version.id as string };
}
