import fs from "node:fs";
import { expect, test, type Locator, type Page } from "@playwright/test";
import {
  api,
  expectNoSeriousA11yViolations as noSeriousA11yViolations,
  type Json,
  shot,
  SHOTS,
  signIn,
} from "./helpers";

/**
 * Issue 20, "read before you judge" and "the run page tells the truth while the run changes", in the browser on data
 * this file makes itself (an agent, golden sets, pasted runs over REST): the annotation item's layout at 1440x900 and
 * 1024x768 (the next item opens at its top, the rubric beside the answer, the queue collapsed on small screens,
 * Pass/Fail always on screen, PageDown/Space/Home/End scrolling the item pane, coverage in words, long keys
 * truncated), and the run page while it answers (the machine pass rate of the answered questions, the page refreshing
 * itself when answering ends, a 0 % bar labelled, "no verdicts" in a comparison).
 */
const STAMP = Date.now().toString(36);
const N = 40;
const LONG_KEY = "breakfast-near-the-office-with-a-long-descriptive-sample-key-001";
const key = (i: number) => (i === 1 ? LONG_KEY : `l${String(i).padStart(3, "0")}`);
const question = (i: number) =>
  `Layout question ${i}: I work near People's Square and start at eight; which warm breakfast do you recommend, where, and for how much?`;
const POINTS = ["recommends Pork Wonton Soup", "mentions the price", "names the shop"];
/** covers every point; "recommends" itself is not in it (the judge still counts the point covered) */
const ANSWER = [
  "Pork Wonton Soup at the Lao Wang shop on Fuzhou Road is the warm start you want: a big bowl with eight wontons, spring onion and a light broth.",
  "The price is 12 yuan, and it is ready in five minutes, so you are at your desk before eight.",
  "If you would rather have something to carry, the scallion pancake next door is 6 yuan.",
].join("\n\n");
const payload = {
  scene: "breakfast",
  goods_list: Array.from({ length: 4 }, (_, k) => ({
    name: `Pork Wonton Soup ${k + 1}`,
    price: 12 + k,
    shop: { name: "Lao Wang", address: "Fuzhou Road 123, Huangpu District, Shanghai", distance_m: 350 + k },
    options: [
      { size: "S", price: 10 + k },
      { size: "L", price: 14 + k },
    ],
    tags: ["hot", "soup", "pork"],
  })),
};

// not serial: every test stands on the data of beforeAll or makes its own, so each one's failure is seen alone
// a page with axe on it can take long on a busy 2-core machine
test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1440, height: 900 } });

const call = api();
let agentId: string;
let run: { id: string; shortId: string };
const item: Record<number, string> = {};

async function goldenSet(name: string, samples: Array<Record<string, unknown>>, gateThreshold: number) {
  const set = await call("POST", "/api/eval/sets", { agentId, name, kind: "golden", gateThreshold });
  await call("POST", `/api/eval/sets/${set.id}/versions/1/import`, {
    format: "json",
    content: JSON.stringify(samples),
    mode: "append",
  });
  const v = await call("POST", `/api/eval/sets/${set.id}/versions/1/freeze`, {});
  return v.id as string;
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  const recipe = await call("GET", "/api/builder/recipes/minimal");
  agentId = (await call("POST", "/api/builder/agents", { name: `Layout e2e ${STAMP}`, workflow: recipe.workflow }))
    .agent.id;
  const samples = Array.from({ length: N }, (_, k) => ({
    key: key(k + 1),
    question: question(k + 1),
    expected_points: POINTS,
    classification: "breakfast",
  }));
  const versionId = await goldenSet(`Layout set ${STAMP}`, samples, N - 4);
  run = await call("POST", "/api/eval/runs", { setVersionId: versionId, mode: "pasted", environment: "e2e-layout" });
  await call("POST", `/api/eval/runs/${run.id}/answers`, {
    answers: samples.map((s) => ({ key: s.key, answer: ANSWER, payload })),
  });
  const page: Json = await call("GET", `/api/eval/runs/${run.id}/queue?limit=500`);
  for (const it of page.items) item[it.key === LONG_KEY ? 1 : Number(it.key.slice(1))] = it.id;
  expect(Object.keys(item)).toHaveLength(N);
});

const openItem = (page: Page, i: number) => page.goto(`/eval?tab=annotation&run=${run.shortId}&item=${item[i]}`);
const shown = (page: Page) => page.locator("#item-question");
const pane = (page: Page) => page.getByRole("region", { name: "Item", exact: true });
const scrollTopOf = (l: Locator) => l.evaluate((e) => Math.round(e.scrollTop));

/** The part of `target` the person can see: inside the window and inside every scrolling box around it (0..1). */
function visibleShare(target: Locator) {
  return target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    let top = Math.max(r.top, 0);
    let bottom = Math.min(r.bottom, window.innerHeight);
    let left = Math.max(r.left, 0);
    let right = Math.min(r.right, window.innerWidth);
    for (let p = el.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (/(auto|scroll|hidden|clip)/.test(s.overflowY + s.overflowX)) {
        const b = p.getBoundingClientRect();
        top = Math.max(top, b.top);
        bottom = Math.min(bottom, b.bottom);
        left = Math.max(left, b.left);
        right = Math.min(right, b.right);
      }
    }
    const area = r.width * r.height;
    return area ? (Math.max(0, bottom - top) * Math.max(0, right - left)) / area : 0;
  });
}

test("1440x900: the rubric beside the answer, coverage in words, a long key truncated, the next item at its top", async ({
  page,
}) => {
  await signIn(page);
  await openItem(page, 1);
  await expect(shown(page)).toHaveText(question(1));
  const article = page.getByRole("article");
  const answer = article.getByRole("region", { name: "Answer" });
  const points = article.getByRole("region", { name: "Expected points" });
  await expect(points.getByRole("listitem")).toHaveCount(POINTS.length);
  // read without scrolling: the question, the answer and every expected point with its coverage
  expect(await visibleShare(shown(page))).toBe(1);
  expect(await visibleShare(answer)).toBe(1);
  expect(await visibleShare(points)).toBe(1);
  // coverage reads as people speak: the status, then the point (no "not found" under a covered point)
  await expect(points.getByRole("listitem").first()).toHaveText(`covered: ${POINTS[0]}`);
  await expect(points).not.toContainText("not found");
  // the long key: truncated, the whole key in a title, never over the question
  const headerKey = article.getByTitle(LONG_KEY);
  await expect(headerKey).toBeVisible();
  expect(await headerKey.evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
  const row = page.getByRole("list", { name: "Queue" }).locator(`[data-item="${item[1]}"]`);
  const rowKey = row.getByTitle(LONG_KEY);
  const rowQuestion = row.getByText(question(1));
  const [k, q] = [await rowKey.boundingBox(), await rowQuestion.boundingBox()];
  expect(k && q && (k.x + k.width <= q.x + 0.5 || k.y + k.height <= q.y + 0.5)).toBe(true);
  // Pass and Fail on screen
  await expect(page.getByRole("button", { name: /^Pass/ })).toBeInViewport({ ratio: 1 });
  await shot(page, { path: `${SHOTS}/layout-annotation-1440x900.png` });
  await noSeriousA11yViolations(page);

  // scrolled down in the pane, J opens the next item at its top
  await pane(page).evaluate((e) => e.scrollBy(0, 400));
  expect(await scrollTopOf(pane(page))).toBeGreaterThan(100);
  await expect(page.getByRole("button", { name: /^Pass/ })).toBeInViewport({ ratio: 1 });
  await page.locator("body").press("j");
  await expect(shown(page)).toHaveText(question(2));
  await expect.poll(() => scrollTopOf(pane(page))).toBe(0);
  expect(await visibleShare(shown(page))).toBe(1);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
});

test("PageDown, Space, Home and End scroll the item pane from the queue and from the pane, never the window", async ({
  page,
}) => {
  await signIn(page);
  await openItem(page, 3);
  await expect(shown(page)).toHaveText(question(3));
  const list = page.getByRole("list", { name: "Queue" });
  const link = list.locator(`[data-item="${item[3]}"] a`);
  await link.focus();
  await page.keyboard.press("PageDown");
  await expect.poll(() => scrollTopOf(pane(page))).toBeGreaterThan(100);
  expect(await scrollTopOf(list)).toBe(0);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await page.keyboard.press("End");
  await expect
    .poll(() => pane(page).evaluate((e) => Math.round(e.scrollHeight - e.clientHeight - e.scrollTop)))
    .toBeLessThanOrEqual(1);
  await page.keyboard.press("Home");
  await expect.poll(() => scrollTopOf(pane(page))).toBe(0);
  // from inside the pane (the item's text clicked): Space and Shift+Space
  await shown(page).click();
  await page.keyboard.press("Space");
  await expect.poll(() => scrollTopOf(pane(page))).toBeGreaterThan(100);
  await page.keyboard.press("Shift+Space");
  await expect.poll(() => scrollTopOf(pane(page))).toBe(0);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  // a button keeps Space for itself
  await expect(page.getByRole("button", { name: "Spot-check" })).toHaveAttribute("aria-pressed", "false");
});

test("1024x768: the queue collapses, the item pane gets the width, nothing overflows sideways, Pass/Fail stay on screen", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await signIn(page);
  await openItem(page, 4);
  await expect(shown(page)).toHaveText(question(4));
  const article = page.getByRole("article");
  const width = (await article.boundingBox())!.width;
  expect(width).toBeGreaterThan(650);
  // the answer and the payload fit the pane's width (the payload's table scrolls inside its own box)
  expect(await pane(page).evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
  expect(await article.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  // the rubric directly under or beside the answer
  await expect(article.getByRole("region", { name: "Expected points" })).toBeVisible();
  // the queue is one click away, and J/K keep working without it
  const toggle = page.getByRole("button", { name: /queue/i }).and(page.locator("[aria-expanded]"));
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("list", { name: "Queue" })).toBeHidden();
  const pass = page.getByRole("button", { name: /^Pass/ });
  const fail = page.getByRole("button", { name: /^Fail/ });
  await expect(pass).toBeInViewport({ ratio: 1 });
  await expect(fail).toBeInViewport({ ratio: 1 });
  expect(await visibleShare(pass)).toBe(1);
  await shot(page, { path: `${SHOTS}/layout-annotation-1024x768.png` });
  await noSeriousA11yViolations(page);
  // scrolled halfway down the item: still on screen
  await page.locator("body").press("PageDown");
  await expect.poll(() => scrollTopOf(pane(page))).toBeGreaterThan(100);
  expect(await visibleShare(pass)).toBe(1);
  expect(await visibleShare(fail)).toBe(1);
  await page.locator("body").press("j");
  await expect(shown(page)).toHaveText(question(5));
  await expect.poll(() => scrollTopOf(pane(page))).toBe(0);
  expect(await visibleShare(shown(page))).toBe(1);
  // the queue opened: beside the item, which keeps a readable width
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByRole("list", { name: "Queue" })).toBeVisible();
  expect(await visibleShare(pass)).toBe(1);
  await shot(page, { path: `${SHOTS}/layout-annotation-1024x768-queue.png` });
  await noSeriousA11yViolations(page);
  // every size in between keeps Pass and Fail on screen
  for (const [w, h] of [
    [1280, 800],
    [1366, 768],
    [1920, 1080],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await pane(page).evaluate((e) => e.scrollBy(0, 300));
    expect(await visibleShare(pass), `${w}x${h}`).toBe(1);
    expect(await visibleShare(fail), `${w}x${h}`).toBe(1);
  }
});

// ------------------------------------------------------------------------------------------------ the run page

const GOOD = "I recommend the Pork Wonton Soup at the Lao Wang shop; the price is 12 yuan.";
const BAD = "Hello there.";
const M = 30;
const rkey = (i: number) => `r${String(i).padStart(3, "0")}`;
/** answered first (8 good, 2 bad): the rest (10 good, 10 bad) later; "late-night" questions are all bad */
const FIRST = Array.from({ length: 10 }, (_, k) => k + 1);
const REST = Array.from({ length: M - 10 }, (_, k) => k + 11);
const isGood = (i: number) => (i <= 10 ? i <= 8 : i <= 20);
const cls = (i: number) => (i === 9 || i === 10 ? "late-night" : "breakfast");
const stat = (page: Page, label: string) => page.locator(`dt:text-is("${label}") + dd`);

const answer = (i: number) => ({ key: rkey(i), answer: isGood(i) ? GOOD : BAD });
/** a pasted run of a new 30-question golden set, not started */
async function liveRun(name: string) {
  const versionId = await goldenSet(
    `${name} ${STAMP}`,
    Array.from({ length: M }, (_, k) => ({
      key: rkey(k + 1),
      question: `Live question ${k + 1}: a warm breakfast near the office and its price?`,
      expected_points: ["recommends Pork Wonton Soup", "mentions the price"],
      classification: cls(k + 1),
    })),
    M - 2,
  );
  return call<{ id: string; shortId: string }>("POST", "/api/eval/runs", {
    setVersionId: versionId,
    mode: "pasted",
    environment: "e2e-live",
  });
}

/** a run with the first 10 answers in (8 pass by the machine, the 2 late-night ones fail), its page open */
async function openAnswering(page: Page, name: string) {
  const live = await liveRun(name);
  await call("POST", `/api/eval/runs/${live.id}/answers`, { answers: FIRST.map(answer) });
  expect((await call("GET", `/api/eval/runs/${live.id}`)).status).toBe("answering");
  await signIn(page);
  await page.goto(`/eval?tab=runs&run=${live.shortId}`);
  await expect(page.getByText(/^answering$/i).first()).toBeVisible();
  return live;
}
const machineRate = (page: Page) => stat(page, "Machine suggestion pass rate");

test("while answering, the machine pass rate counts the answered questions only", async ({ page }) => {
  await openAnswering(page, "Answering set");
  // 8 of the 10 answered questions pass by the machine: 80 %, not 8 of 30
  await expect(machineRate(page)).toHaveText("80%");
  await expect(machineRate(page).locator("+ dd")).toContainText("8 pass · 2 fail");
  await expect(machineRate(page).locator("+ dd")).toContainText("10 answered");
  // the human-confirmed rate still counts every question (an unjudged one is no pass)
  await expect(stat(page, "Human-confirmed pass rate").locator("+ dd")).toContainText("30 unjudged");
  await shot(page, { path: `${SHOTS}/layout-run-answering-1440x900.png`, fullPage: true });
  await page.setViewportSize({ width: 1024, height: 768 });
  await expect(machineRate(page)).toBeVisible();
  await shot(page, { path: `${SHOTS}/layout-run-answering-1024x768.png`, fullPage: true });
  await noSeriousA11yViolations(page);
});

test("a 0 % bar shows its number", async ({ page }) => {
  await openAnswering(page, "Zero bar set");
  const chart = page.getByRole("img", { name: "Machine and human-confirmed pass rate by scenario" });
  await expect(chart).toBeVisible();
  // machine and human, two scenarios: every bar has its number, 0 % too (late-night by the machine, both human bars)
  const labels = chart.locator(".recharts-label-list text");
  await expect(labels).toHaveCount(4);
  await expect(labels.filter({ hasText: /^0%$/ })).toHaveCount(3);
  await chart.scrollIntoViewIfNeeded();
  await shot(page, { path: `${SHOTS}/layout-run-zero-bars.png` });
});

test("when answering ends, the run page refreshes itself: status, gate, pass rates, suggestion counts", async ({
  page,
}) => {
  const live = await openAnswering(page, "Refresh set");
  await expect(machineRate(page).locator("+ dd")).toContainText("8 pass · 2 fail");
  // the last answers arrive right after the page has read the report: the page must catch up by itself
  await page.waitForResponse((r) => r.url().includes("eval.runs.report"));
  await call("POST", `/api/eval/runs/${live.id}/answers`, { answers: REST.map(answer) });
  expect((await call("GET", `/api/eval/runs/${live.id}`)).status).toBe("awaiting_review");
  await expect(page.getByText(/^awaiting review$/i).first()).toBeVisible();
  // 18 of 30 pass by the machine; the gate counts all 30 questions of a run that has finished answering
  await expect(machineRate(page).locator("+ dd")).toContainText("18 pass · 12 fail", { timeout: 8_000 });
  await expect(machineRate(page)).toHaveText("60%");
  const gate = page.getByRole("region", { name: "Release gate" });
  await expect(gate).toContainText(`of ${M}`);
  await expect(gate).not.toContainText("answering");
  await expect(stat(page, "Completeness")).toHaveText(`0/${M}`);
  await shot(page, { path: `${SHOTS}/layout-run-answered-1440x900.png`, fullPage: true });
});

test("a comparison of runs without verdicts says so, not 0 % -> 0 %", async ({ page }) => {
  const live = await liveRun("Compared set");
  await call("POST", `/api/eval/runs/${live.id}/answers`, { answers: [...FIRST, ...REST].map(answer) });
  const rerun = await call("POST", `/api/eval/runs/${live.id}/rerun`, {});
  await call("POST", `/api/eval/runs/${rerun.id}/answers`, {
    answers: Array.from({ length: M }, (_, k) => ({ key: rkey(k + 1), answer: GOOD })),
  });
  await signIn(page);
  await page.goto(`/eval?tab=runs&agent=${agentId}&view=compare&a=${live.shortId}&b=${rerun.shortId}`);
  const human = stat(page, "Human-confirmed pass rate");
  await expect(human).toHaveText("no verdicts");
  await expect(human).not.toContainText("0%");
  await expect(human.locator("+ dd")).not.toContainText("points");
  // the machine did suggest: its rates stay numbers (60 % -> 100 %)
  await expect(stat(page, "Machine pass rate")).toHaveText("60% → 100%");
  // one verdict in B: B has a rate, A still has none
  await call("PUT", `/api/eval/runs/${rerun.id}/items/${(await firstItem(rerun.id)).id}/verdict`, { verdict: "pass" });
  await page.reload();
  await expect(human).toHaveText(`no verdicts → ${(100 / M).toFixed(1)}%`);
  await shot(page, { path: `${SHOTS}/layout-compare-no-verdicts.png` });
  await noSeriousA11yViolations(page);
});

async function firstItem(runId: string) {
  return (await call("GET", `/api/eval/runs/${runId}/queue?limit=1`)).items[0];
}
