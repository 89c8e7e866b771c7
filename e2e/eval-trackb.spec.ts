import fs from "node:fs";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { api, expectNoSeriousA11yViolations as noSeriousA11yViolations, shot, SHOTS, signIn } from "./helpers";
import { llmWorkflow } from "../server/eval/testing";

/**
 * Track B and Bad Cases without friction (issue 20), in the browser on data this file makes itself over REST: a pool
 * of 14 online samples frozen with 13 unconfirmed, a pasted regression run answered for two of them (a fail with a
 * Bad Case, one to judge, twelve with no answer yet), and a v2 draft opened by two new samples.
 * - the board offers "Judge in R-…" only for answered items and says why the others cannot be judged;
 * - its eight columns are one row that scrolls sideways, and a long column scrolls inside itself;
 * - samples frozen unconfirmed in v1 are not "not confirmed" again in v2, and Freeze v2 counts only its new candidate;
 * - "Re-run the same batch" on a Bad Case creates and starts the run; the case page shows the expected points, the
 *   re-run's verdict and a Verify button that says what it rests on: only a platform run of a newer agent version
 *   with a human pass (a pasted re-run's pass is refused, and the page says why); a manager verifies another case
 *   with a reason, which its page and history show;
 * - the leads' From/To show the range the chart counts; the runs table keeps Run IDs on one line and every column in
 *   view at 1024 px.
 */
const STAMP = Date.now().toString(36);
const call = api();
const N = 14;
type Run = { id: string; shortId: string; status: string };
const data: {
  agentId: string;
  setId: string;
  run: Run;
  keys: string[];
  badCaseId: string;
} = {} as never;

test.describe.configure({ mode: "serial" });

async function chatTrace(agentId: string, message: string): Promise<string> {
  return (await call("POST", `/api/agents/${agentId}/chat`, { message })).traceId;
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  const agent = await call("POST", "/api/builder/agents", { name: `Track B ${STAMP}`, workflow: llmWorkflow() });
  data.agentId = agent.agent.id;
  await call("POST", `/api/builder/agents/${data.agentId}/publish`, { version: 1 });
  const pool = await call("POST", "/api/eval/sets", {
    agentId: data.agentId,
    name: `Pool ${STAMP}`,
    kind: "regression_pool",
    gateThreshold: 0,
  });
  data.setId = pool.id;
  const add = async (i: number) =>
    (
      await call("POST", `/api/eval/sets/${pool.id}/pool`, {
        traceId: await chatTrace(data.agentId, `Which breakfast costs under 10 yuan? (${i})`),
        expectedPoints: ["recommends a breakfast dish", "mentions the price"],
      })
    ).sample;
  const samples = [];
  for (let i = 0; i < N; i++) samples.push(await add(i));
  data.keys = samples.map((s: { key: string }) => s.key);
  await call("POST", `/api/eval/samples/${samples[0].id}/confirm`);
  const v1 = await call("POST", `/api/eval/sets/${pool.id}/versions/1/freeze`); // 13 taken in unconfirmed
  // a regression run of v1 answered for two questions: the first fails (a Bad Case), the second waits for a verdict
  data.run = await call("POST", "/api/eval/runs", {
    setVersionId: v1.id,
    mode: "pasted",
    tier: "pipeline_live",
    environment: "trackb-e2e",
  });
  await call("POST", `/api/eval/runs/${data.run.id}/start`);
  await call("POST", `/api/eval/runs/${data.run.id}/answers`, {
    answers: [
      { key: data.keys[0], answer: "Sorry, I cannot help with that." },
      { key: data.keys[1], answer: "The soy milk breakfast set costs 8 yuan." },
    ],
  });
  const items = (await call("GET", `/api/eval/runs/${data.run.id}/items?limit=100`)).items;
  const first = items.find((i: { key: string }) => i.key === data.keys[0]);
  await call("PUT", `/api/eval/runs/${data.run.id}/items/${first.id}/verdict`, {
    verdict: "fail",
    basis: "no dish, no price",
    attribution: "generation",
  });
  data.badCaseId = (await call("POST", `/api/eval/runs/${data.run.id}/items/${first.id}/bad-case`, {})).badCase.id;
  // two new online samples open v2 (a copy of v1): one confirmed, one a candidate
  const confirmedNew = await add(100);
  await call("POST", `/api/eval/samples/${confirmedNew.id}/confirm`);
  await add(101);
});

const boardUrl = () => `/eval?agent=${data.agentId}`;
const column = (page: Page, label: string, n: number) => page.getByRole("region", { name: `${label}: ${n}` });

test("the board: Judge only where there is an answer, one scrolling row, no 'not confirmed' after a freeze", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await page.goto(boardUrl());
  const inRun = column(page, "In a run", N - 1);
  await expect(inRun).toBeVisible();
  // the answered question is judged in the run; the twelve without an answer say why there is nothing to judge
  const answered = inRun.getByRole("listitem", { name: new RegExp(`^${data.keys[1]}:`) });
  await expect(answered.getByRole("link", { name: `Judge in ${data.run.shortId} →` })).toBeVisible();
  const waiting = inRun.getByRole("listitem", { name: new RegExp(`^${data.keys[2]}:`) });
  await expect(waiting).toContainText(`${data.run.shortId} is answering: no answer to judge yet`);
  await expect(waiting.getByRole("link", { name: /^Judge in/ })).toHaveCount(0);
  await expect(waiting.getByRole("link", { name: `Open ${data.run.shortId} →` })).toBeVisible();
  await expect(inRun.getByRole("link", { name: /^Judge in/ })).toHaveCount(1);

  // confirming is the trace's: only the new candidate says "not confirmed"; Freeze v2 names it alone
  await expect(column(page, "In pool", 1)).toContainText("not confirmed");
  await expect(page.getByText("not confirmed", { exact: true })).toHaveCount(1);
  await column(page, "Expectations added", 1)
    .getByRole("button", { name: /^Freeze Pool/ })
    .click();
  const ask = page.getByRole("alertdialog", { name: /^Freeze Pool/ });
  await expect(ask).toContainText("1 of its 16 online samples is not confirmed yet");
  await expect(ask.getByRole("button", { name: "Freeze with 1 unconfirmed" })).toBeVisible();
  await ask.getByRole("button", { name: "Cancel" }).click();
  await expect(ask).toBeHidden();
  // the history of a sample v1 took in unconfirmed says so
  await waiting.getByText(/^History/).click();
  await expect(waiting.getByRole("list", { name: /History of/ })).toContainText(
    /Frozen in v1 by .+ without a confirmation/,
  );

  for (const size of [
    { width: 1440, height: 900 },
    { width: 1024, height: 768 },
  ]) {
    await page.setViewportSize(size);
    await page.goto(boardUrl());
    await expect(column(page, "In a run", N - 1)).toBeVisible();
    await shot(page, { path: `${SHOTS}/trackb-board-${size.width}.png` });
    await boardIsOneScrollingRow(page, column(page, "In a run", N - 1));
    await shot(page, { path: `${SHOTS}/trackb-board-${size.width}-scrolled.png` });
    await noSeriousA11yViolations(page);
  }
});

/** Eight columns side by side in one row that scrolls sideways (not the page); the long column scrolls inside itself. */
async function boardIsOneScrollingRow(page: Page, longColumn: Locator) {
  const row = page.getByRole("region", { name: "Board columns" });
  const columns = row.locator(":scope > section");
  await expect(columns).toHaveCount(8);
  const tops = await columns.evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
  expect(new Set(tops).size, `column tops ${tops.join(", ")}`).toBe(1);
  const scroll = await row.evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
  expect(scroll.scroll).toBeGreaterThan(scroll.client);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  const viewport = page.viewportSize()!;
  const box = (await longColumn.boundingBox())!;
  expect(box.height).toBeLessThanOrEqual(viewport.height);
  const list = longColumn.getByRole("list").first();
  const inner = await list.evaluate((e) => ({ scroll: e.scrollHeight, client: e.clientHeight }));
  expect(inner.scroll).toBeGreaterThan(inner.client);
  // the last column can be brought into view by scrolling the row
  await row.evaluate((e) => e.scrollTo({ left: e.scrollWidth }));
  const verified = (await columns.last().boundingBox())!;
  expect(verified.x + verified.width).toBeLessThanOrEqual(viewport.width);
}

test("a Bad Case: expected points, re-run created and started, Verify says what it rests on", async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await page.goto(`/eval?tab=bad-cases&agent=${data.agentId}&case=${data.badCaseId}`);
  await expect(page.getByRole("list", { name: "Expected points" })).toContainText("mentions the price");
  await expect(
    page.getByText(
      `Not verifiable yet: no later run of Pool ${STAMP} answered in the platform by an agent version newer than v1 has a pass for ${data.keys[0]}.`,
    ),
  ).toBeVisible();
  // no evidence: no Verify button, only a manager's "Verify with a reason…"
  await expect(page.getByRole("button", { name: /^Verify:/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Verify with a reason…" })).toBeEnabled();
  // "verified" is the button's, not an option of the status select
  await expect(page.getByRole("combobox", { name: /Change the status of/ }).locator("option")).toHaveText([
    "open",
    "fixing",
    "fixed",
    "won't fix",
  ]);

  await page.getByRole("button", { name: "Re-run the same batch" }).click();
  await expect(page).toHaveURL(/tab=runs.*run=R-/);
  const rerunId = new URL(page.url()).searchParams.get("run")!;
  expect(rerunId).not.toBe(data.run.shortId);
  // created AND started: a pasted run that is answering (waiting for its answers), not "created"
  expect((await call<Run>("GET", `/api/eval/runs/${rerunId}`)).status).toBe("answering");

  // the re-run answers the question and a person passes it
  await call("POST", `/api/eval/runs/${rerunId}/answers`, {
    answers: [{ key: data.keys[0], answer: "The soy milk breakfast set costs 8 yuan." }],
  });
  const items = (await call("GET", `/api/eval/runs/${rerunId}/items?limit=100`)).items;
  const item = items.find((i: { key: string }) => i.key === data.keys[0]);
  await call("PUT", `/api/eval/runs/${rerunId}/items/${item.id}/verdict`, { verdict: "pass" });

  await page.goto(`/eval?tab=bad-cases&agent=${data.agentId}&case=${data.badCaseId}`);
  const rerun = page.getByLabel("The latest re-run");
  // a pasted re-run of the same version proves nothing about the agent: its pass does not verify, and the page says why
  await expect(rerun).toContainText(`Latest re-run ${rerunId}: pass judged by`);
  await expect(
    page.getByText(
      `Not verifiable yet: the pass in ${rerunId} does not count: its answers were pasted, not answered by the agent.`,
    ),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: /^Verify:/ })).toHaveCount(0);

  // the fix: agent version 2, the batch answered in the platform, the question passed by a person
  await call("POST", `/api/builder/agents/${data.agentId}/versions`, { workflow: llmWorkflow(), note: "the fix" });
  const fixed = await call<Run>("POST", "/api/eval/runs", {
    setVersionId: (await call<Run & { setVersionId: string }>("GET", `/api/eval/runs/${data.run.id}`)).setVersionId,
    mode: "in_platform",
    tier: "invoke",
    environment: "trackb-e2e-fix",
  });
  await call("POST", `/api/eval/runs/${fixed.id}/start`);
  await expect
    .poll(async () => (await call<Run>("GET", `/api/eval/runs/${fixed.id}`)).status, { timeout: 90_000 })
    .toBe("awaiting_review");
  const fixedItem = (await call("GET", `/api/eval/runs/${fixed.id}/items?limit=100`)).items.find(
    (i: { key: string }) => i.key === data.keys[0],
  );
  await call("PUT", `/api/eval/runs/${fixed.id}/items/${fixedItem.id}/verdict`, { verdict: "pass" });

  await page.goto(`/eval?tab=bad-cases&agent=${data.agentId}&case=${data.badCaseId}`);
  await expect(rerun).toContainText(`Re-run ${fixed.shortId}: pass judged by`);
  const verify = page.getByRole("button", { name: new RegExp(`^Verify: passed in ${fixed.shortId} by .+`) });
  await expect(verify).toBeVisible();
  for (const size of [
    { width: 1440, height: 900 },
    { width: 1024, height: 768 },
  ]) {
    await page.setViewportSize(size);
    await expect(verify).toBeInViewport();
    await shot(page, { path: `${SHOTS}/trackb-bad-case-${size.width}.png` });
    await noSeriousA11yViolations(page);
  }
  await verify.click();
  await expect(page.getByText("Bad Case verified")).toBeVisible();
  await expect(page.getByRole("list", { name: "History of the Bad Case" })).toContainText(
    `passed (human verdict) in ${fixed.shortId}`,
  );
  await expect(page.getByText(new RegExp(`^Verified: passed in ${fixed.shortId}`))).toBeVisible();
});

test("a Bad Case without a qualifying run: a manager verifies it with a reason, kept on the case and in its history", async ({
  page,
}) => {
  // the second question of the first run, failed now: no later run has a pass for it
  const items = (await call("GET", `/api/eval/runs/${data.run.id}/items?limit=100`)).items;
  const second = items.find((i: { key: string }) => i.key === data.keys[1]);
  await call("PUT", `/api/eval/runs/${data.run.id}/items/${second.id}/verdict`, {
    verdict: "fail",
    basis: "the price is made up",
    attribution: "data",
  });
  const bc = (await call("POST", `/api/eval/runs/${data.run.id}/items/${second.id}/bad-case`, {})).badCase;
  await signIn(page);
  await page.goto(`/eval?tab=bad-cases&agent=${data.agentId}&case=${bc.id}`);
  await expect(page.getByText(/^Not verifiable yet: /)).toBeVisible();
  await page.getByRole("button", { name: "Verify with a reason…" }).click();
  const dialog = page.getByRole("dialog", { name: "Verify with a reason" });
  await dialog.getByRole("button", { name: "Verify" }).click();
  await expect(dialog).toContainText("Say why it is verified without a re-run"); // required
  const reason = "The price list was corrected in the menu data; the agent needed no change.";
  await dialog.getByRole("textbox", { name: "Reason" }).fill(reason);
  await dialog.getByRole("button", { name: "Verify" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Bad Case verified with a reason")).toBeVisible();
  await expect(page.getByText(/^Verified by .+ with a reason \(no qualifying run\)\.$/)).toBeVisible();
  await expect(page.getByText(`Reason: ${reason}`)).toBeVisible();
  await expect(page.getByRole("list", { name: "History of the Bad Case" })).toContainText(`with a reason: “${reason}”`);
  expect(await call("GET", `/api/eval/bad-cases/${bc.id}`)).toMatchObject({
    status: "verified",
    verifiedRunId: null,
    verifiedReason: reason,
  });
  await shot(page, { path: `${SHOTS}/trackb-bad-case-reason.png` });
  await noSeriousA11yViolations(page);
});

test("the leads' From/To show the range the chart counts", async ({ page }) => {
  await signIn(page);
  await page.goto(boardUrl());
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const today = day(Date.now());
  const from = day(Date.parse(`${today}T00:00:00Z`) - 29 * 86_400_000);
  const filters = page.getByRole("group", { name: "Filters" });
  await expect(filters.getByLabel("From")).toHaveValue(from);
  await expect(filters.getByLabel("To")).toHaveValue(today);
  await expect(page.getByText(new RegExp(`leads? from ${from} to ${today}`))).toBeVisible();
});

test("the runs table at 1024 px: Run IDs on one line, every column in view", async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await signIn(page);
  await page.goto(`/eval?tab=runs&agent=${data.agentId}`);
  const table = page.getByRole("table", { name: "Runs" });
  await expect(table.getByRole("link", { name: data.run.shortId })).toBeVisible();
  const lines = await table
    .getByRole("link", { name: /^R-/ })
    .evaluateAll((els) => els.map((e) => e.getClientRects().length));
  expect(lines.length).toBeGreaterThanOrEqual(2);
  expect(
    lines.every((n) => n === 1),
    `line boxes per Run ID: ${lines.join(", ")}`,
  ).toBe(true);
  const region = page.getByRole("region", { name: "Runs" });
  const right = await region.evaluate((e) => e.getBoundingClientRect().right);
  const edges = await table.locator("th").evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right));
  expect(edges).toHaveLength(6); // the pick to compare, Run, Set, Status, Answered, Created
  for (const edge of edges) expect(edge).toBeLessThanOrEqual(Math.min(right, 1024) + 0.5);
  await shot(page, { path: `${SHOTS}/trackb-runs-1024.png` });
  await page.setViewportSize({ width: 1440, height: 900 });
  await shot(page, { path: `${SHOTS}/trackb-runs-1440.png` });
  await noSeriousA11yViolations(page);
});
