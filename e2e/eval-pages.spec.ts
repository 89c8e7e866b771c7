import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import {
  api,
  expectNoSeriousA11yViolations as noSeriousA11yViolations,
  shot,
  SHOTS,
  signIn as signInAs,
} from "./helpers";
import { llmWorkflow } from "../server/eval/testing";

/**
 * The evaluation pages' gaps closed for issue 11, in the browser against the production build: create-and-start
 * whose start fails, a bad agent in the URL and the searchable agent selector, a paged comparison with its filter,
 * page and opened question in the URL, the report's tier chart and numbers, usage with its range in the URL, the Bad
 * Case filters and the bulk dialog, a new run from a frozen version's page, and the online loop board's "Run vN at
 * pipeline_live" whose run fails as it starts. Everything runs on agents, sets and runs this file creates itself
 * (other tests' data is never assumed).
 */
const GOOD = "I recommend the scallion pancake breakfast dish; the price is 12 yuan.";
const BAD = "Sorry, I cannot help with that.";
const N = 220; // 55 regressions: two pages of the comparison
const STAMP = Date.now().toString(36);

test.use({ viewport: { width: 1440, height: 960 } });

type Run = { id: string; shortId: string; status: string };
const data: {
  agentId: string;
  agentName: string;
  setId: string;
  versionId: string;
  runA: Run;
  runB: Run;
  tokensRun: Run;
} = {} as never;

const key = (i: number) => `q${String(i + 1).padStart(3, "0")}`;

const call = api();

async function frozenSet(agentId: string, name: string, n: number) {
  const set = await call("POST", "/api/eval/sets", {
    agentId,
    name,
    kind: "golden",
    gateThreshold: Math.max(1, n - 10),
  });
  const rows = Array.from({ length: n }, (_, i) => ({
    key: key(i),
    question: `Please recommend a breakfast dish and mention the price (${i + 1})`,
    expected_points: ["recommends a breakfast dish", "mentions the price"],
    classification: i % 3 === 0 ? "price" : "breakfast",
  }));
  await call("POST", `/api/eval/sets/${set.id}/versions/1/import`, { format: "json", content: JSON.stringify(rows) });
  const v = await call("POST", `/api/eval/sets/${set.id}/versions/1/freeze`);
  return { setId: set.id as string, versionId: v.id as string };
}

async function pastedRun(path: string, body: unknown, bad: (i: number) => boolean, skip = -1): Promise<Run> {
  const run = await call<Run>("POST", path, body);
  await call("POST", `/api/eval/runs/${run.id}/start`);
  const answers = Array.from({ length: N }, (_, i) => i)
    .filter((i) => i !== skip)
    .map((i) => ({ key: key(i), answer: bad(i) ? BAD : GOOD }));
  await call("POST", `/api/eval/runs/${run.id}/answers`, { answers });
  await call("POST", `/api/eval/runs/${run.id}/adopt`, {});
  return run;
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  data.agentName = `Pages agent ${STAMP}`;
  data.agentId = (
    await call("POST", "/api/builder/agents", { name: data.agentName, workflow: llmWorkflow() })
  ).agent.id;
  Object.assign(data, await frozenSet(data.agentId, `Pages golden ${STAMP}`, N));
  // A fails where i % 4 == 1; its re-run B fails where i % 4 == 0 and has no answer for the last question
  data.runA = await pastedRun(
    "/api/eval/runs",
    { setVersionId: data.versionId, mode: "pasted", tier: "pipeline_live", environment: "pages-e2e" },
    (i) => i % 4 === 1,
  );
  data.runB = await pastedRun(`/api/eval/runs/${data.runA.id}/rerun`, {}, (i) => i % 4 === 0, N - 1);
  await call("POST", `/api/eval/runs/${data.runA.id}/bad-cases`);
  // a small run answered in the platform by the offline model: it has tokens for the usage chart
  const small = await frozenSet(data.agentId, `Pages tokens ${STAMP}`, 3);
  const run = await call<Run>("POST", "/api/eval/runs", {
    setVersionId: small.versionId,
    mode: "in_platform",
    tier: "invoke",
    environment: "pages-e2e",
  });
  await call("POST", `/api/eval/runs/${run.id}/start`);
  await expect
    .poll(async () => (await call<Run>("GET", `/api/eval/runs/${run.id}`)).status, { timeout: 60_000 })
    .not.toMatch(/^(created|answering)$/);
  data.tokensRun = run;
});

const signIn = (page: Page) => signInAs(page);

const evalUrl = (params: Record<string, string>) => `/eval?${new URLSearchParams(params).toString()}`;

test("an unknown agent in the URL falls back to the first agent with a notice; the selector searches every agent", async ({
  page,
}) => {
  await signIn(page);
  await page.goto(evalUrl({ tab: "runs", agent: "no-such-agent-42" }));
  await expect(page.getByRole("status").filter({ hasText: "No agent “no-such-agent-42” exists" })).toBeVisible();
  await expect(page).not.toHaveURL(/no-such-agent-42/);
  await expect(page.getByRole("tab", { name: "Runs" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("button", { name: "New run" })).toBeVisible();
  await expect(page.getByRole("status", { name: "Loading runs" })).toHaveCount(0);
  await shot(page, { path: `${SHOTS}/eval-pages-bad-agent.png` });
  await noSeriousA11yViolations(page);
  // the notice is dismissed here, before the selector is used: choosing another agent clears it by itself, and which
  // agent is the fallback depends on the sets other specs create meanwhile (newest set first), so after a choice the
  // notice may or may not still be there
  await page.getByRole("button", { name: "Dismiss" }).click();
  await expect(page.getByRole("status").filter({ hasText: "No agent" })).toHaveCount(0);

  // the selector is a combobox that searches on the server: type part of the name, choose with the keyboard
  const box = page.getByRole("combobox", { name: "Agent" });
  await box.click();
  await box.fill(`agent ${STAMP}`);
  const option = page.getByRole("option", { name: data.agentName });
  await expect(option).toBeVisible();
  await expect(page.getByRole("listbox").getByRole("option")).toHaveCount(1); // the search has narrowed the list to the one agent
  await shot(page, { path: `${SHOTS}/eval-pages-agent-search.png` });
  await box.press("ArrowDown");
  await box.press("ArrowUp");
  await box.press("Enter");
  await expect(page).toHaveURL(new RegExp(`agent=${data.agentId}`));
  await expect(box).toHaveValue(data.agentName);
  // a deep link to an agent beyond the first listed is looked up on the server (here: any agent by id)
  await page.goto(evalUrl({ tab: "runs", agent: data.agentId }));
  await expect(box).toHaveValue(data.agentName);
  await expect(page.getByRole("link", { name: data.runA.shortId })).toBeVisible();
});

test("sets: created, renamed and deleted in the browser; the agent selector then lists that agent first (newest set)", async ({
  page,
}) => {
  await signIn(page);
  const name = `Fresh agent ${STAMP}`;
  const agentId = (await call("POST", "/api/builder/agents", { name, workflow: llmWorkflow() })).agent.id as string;
  await page.goto(evalUrl({ tab: "sets", agent: agentId }));
  await page.getByRole("button", { name: "New set" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New evaluation set" });
  await dialog.getByLabel("Name").fill(`Fresh golden ${STAMP}`);
  await dialog.getByLabel("Gate threshold").fill("3");
  await shot(page, { path: `${SHOTS}/eval-pages-new-set.png` });
  await noSeriousA11yViolations(page);
  await dialog.getByLabel("Gate threshold").press("Enter"); // the keyboard submits the form
  await expect(page).toHaveURL(/v=1/);
  await expect(page.getByRole("heading", { name: `Fresh golden ${STAMP}` }).first()).toBeVisible();
  // the selector's first agent is the one whose set is newest: this one, without a reload
  const box = page.getByRole("combobox", { name: "Agent" });
  await box.click();
  await box.fill("");
  await expect(page.getByRole("listbox").getByRole("option").first()).toHaveText(new RegExp(name));
  await box.press("Escape");
  // rename, then delete with the confirmation
  await page
    .getByRole("link", { name: `Fresh golden ${STAMP}` })
    .first()
    .click();
  await page.getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: "Edit the set" });
  await edit.getByLabel("Name").fill(`Renamed golden ${STAMP}`);
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("heading", { name: `Renamed golden ${STAMP}` }).first()).toBeVisible();
  await page.getByRole("button", { name: "Delete", exact: true }).first().click();
  await shot(page, { path: `${SHOTS}/eval-pages-delete-set.png` });
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete set" }).click();
  await expect(page).toHaveURL(/tab=sets/);
  await expect(page.getByText(`Renamed golden ${STAMP}`)).toHaveCount(0);
  expect((await call("GET", `/api/eval/sets?agentId=${agentId}`)).items).toHaveLength(0);
});

test("the runs list shows verdicts by people apart from adopted ones", async ({ page }) => {
  await signIn(page);
  await page.goto(evalUrl({ tab: "runs", agent: data.agentId }));
  const rowA = page.getByRole("row").filter({ has: page.getByRole("link", { name: data.runA.shortId }) });
  await expect(rowA).toContainText(`0 + ${N} adopted / ${N}`);
  const rowB = page.getByRole("row").filter({ has: page.getByRole("link", { name: data.runB.shortId }) });
  await expect(rowB).toContainText(`0 + ${N - 1} adopted / ${N}`);
  await shot(page, { path: `${SHOTS}/eval-pages-runs-list.png`, fullPage: true });
});

test("create and start: a start that fails says the run exists and leads to it", async ({ page }) => {
  await signIn(page);
  await page.goto(evalUrl({ tab: "runs", agent: data.agentId }));
  // the answering queue refuses the start (as a server in trouble would): the run is created all the same
  await page.route(/\/api\/trpc\/[^?]*eval\.runs\.start/, (route) =>
    route.fulfill({
      status: 503,
      contentType: "application/json",
      body: JSON.stringify([
        {
          error: {
            message: "The answering queue is not available",
            code: -32603,
            data: { code: "INTERNAL_SERVER_ERROR", httpStatus: 503, appCode: "QUEUE_UNAVAILABLE", details: [] },
          },
        },
      ]),
    }),
  );
  await page.getByRole("button", { name: "New run" }).click();
  const dialog = page.getByRole("dialog", { name: "New run" });
  await dialog.getByLabel("Set version").selectOption({ label: `Pages tokens ${STAMP} · v1 · 3 questions · gate 1` });
  await dialog.getByRole("button", { name: "Create and start" }).click();
  const alert = dialog.getByRole("alert");
  await expect(alert).toContainText("was created, but answering did not start");
  await expect(alert).toContainText("The answering queue is not available");
  await expect(page.getByText("Answering has started")).toHaveCount(0);
  await shot(page, { path: `${SHOTS}/eval-pages-start-failed.png` });
  await noSeriousA11yViolations(page);
  const shortId = (await alert.getByRole("link").textContent())?.trim() ?? "";
  expect(shortId).toMatch(/^R-[0-9A-Z]{5}$/);
  await dialog.getByRole("button", { name: `Open run ${shortId}` }).click();
  await expect(page).toHaveURL(new RegExp(`run=${shortId}`));
  await expect(page.getByRole("heading", { name: shortId })).toBeVisible();
  await expect(page.getByRole("button", { name: "Start", exact: true })).toBeVisible();
  await page.unroute(/\/api\/trpc\/[^?]*eval\.runs\.start/);
});

test("the comparison is paged by the server; its outcome, page and opened question are in the URL", async ({
  page,
}) => {
  await signIn(page);
  const { runA, runB } = data;
  await page.goto(
    evalUrl({
      tab: "runs",
      agent: data.agentId,
      view: "compare",
      a: runA.shortId,
      b: runB.shortId,
      outcome: "regressed",
    }),
  );
  await expect(page.getByRole("button", { name: "Regressed (55)" })).toHaveAttribute("aria-pressed", "true");
  const table = page.getByRole("table", { name: "Questions of both runs" });
  await expect(table.locator("tbody tr")).toHaveCount(50);
  await expect(table.locator("tbody")).not.toContainText("Both pass");
  const pages = page.getByRole("navigation", { name: "Question pages" });
  await expect(pages).toContainText("1–50 of 55");
  await pages.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/outcome=regressed&page=2/);
  await expect(pages).toContainText("51–55 of 55");
  await expect(table.locator("tbody tr")).toHaveCount(5);
  // open one question: both answers side by side, and the URL says which
  // q201 (i = 200, a regression: 200 % 4 == 0)
  await table.getByRole("button", { name: /\(201\)$/ }).click();
  await expect(page).toHaveURL(/open=q201/);
  await expect(page.getByRole("region", { name: `A · ${runA.shortId}` })).toContainText(GOOD);
  await expect(page.getByRole("region", { name: `B · ${runB.shortId}` })).toContainText(BAD);
  await shot(page, { path: `${SHOTS}/eval-pages-compare.png`, fullPage: true });
  await noSeriousA11yViolations(page);
  // a reload (or a shared link) shows the same view
  await page.reload();
  await expect(pages).toContainText("51–55 of 55");
  await expect(page.getByRole("region", { name: `B · ${runB.shortId}` })).toContainText(BAD);
  // another outcome: back to its first page, nothing opened
  // the outcome chips are toggle buttons: focus one and press it with the keyboard
  const incomplete = page.getByRole("button", { name: "Incomplete (1)" });
  await expect(incomplete).toHaveAttribute("aria-pressed", "false");
  await incomplete.focus();
  await page.keyboard.press("Enter");
  await expect(incomplete).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("button", { name: "Regressed (55)" })).toHaveAttribute("aria-pressed", "false");
  await expect(page).toHaveURL(/outcome=incomplete/);
  await expect(page).not.toHaveURL(/page=|open=/);
  await expect(table.locator("tbody tr")).toHaveCount(1);
  await expect(table).toContainText("q220");
  await page.setViewportSize({ width: 420, height: 900 });
  await shot(page, { path: `${SHOTS}/eval-pages-compare-narrow.png`, fullPage: true });
  await page.setViewportSize({ width: 1440, height: 960 });
});

test("the report charts the tiers (machine vs human) and has the numbers behind every chart", async ({ page }) => {
  await signIn(page);
  await page.goto(evalUrl({ tab: "runs", agent: data.agentId, run: data.runA.shortId }));
  const tier = page.getByRole("region", { name: "By tier", exact: true });
  await expect(tier.getByRole("img", { name: "Machine and human-confirmed pass rate by tier" })).toBeVisible();
  await expect(tier.locator(".recharts-bar-rectangle").first()).toBeVisible();
  await expect(tier).toContainText("pipeline live");
  for (const card of ["By tier", "Failures by attribution", "By scenario"]) {
    const region = page.getByRole("region", { name: card, exact: true });
    await region.getByText("The numbers").click();
    await expect(region.getByRole("table")).toBeVisible();
  }
  await expect(page.getByRole("table", { name: "Failed questions by attribution" })).toContainText("55");
  await tier.scrollIntoViewIfNeeded();
  await shot(page, { path: `${SHOTS}/eval-pages-report.png`, fullPage: true });
  await noSeriousA11yViolations(page);
});

test("usage: the range and the scope are in the URL; tokens are charted by day", async ({ page }) => {
  await signIn(page);
  const today = new Date().toISOString().slice(0, 10);
  const weekAgo = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
  await page.goto(evalUrl({ tab: "runs", agent: data.agentId, view: "usage", from: weekAgo, to: today }));
  const fromBox = page.getByLabel("From", { exact: true });
  await expect(fromBox).toHaveValue(weekAgo);
  await expect(page.getByLabel("To", { exact: true })).toHaveValue(today);
  await expect(page.getByRole("img", { name: "Answering and judging tokens by day" })).toBeVisible();
  await expect(page.getByRole("img", { name: "Runs and answered questions by day" })).toBeVisible();
  await shot(page, { path: `${SHOTS}/eval-pages-usage.png`, fullPage: true });
  await noSeriousA11yViolations(page);
  const earlier = new Date(Date.now() - 13 * 86_400_000).toISOString().slice(0, 10);
  await fromBox.fill(earlier);
  await expect(page).toHaveURL(new RegExp(`from=${earlier}`));
  await page.getByLabel("Agents").selectOption("all");
  // both changes are in the address bar (the second was not made from the state before the first) before reloading
  await expect(page).toHaveURL((u) => u.searchParams.get("from") === earlier && u.searchParams.get("scope") === "all");
  await expect(page.getByRole("heading", { name: `${earlier} to ${today}` })).toBeVisible();
  await page.reload();
  await expect(fromBox).toHaveValue(earlier);
  await expect(page.getByLabel("Agents")).toHaveValue("all");
  await expect(page.getByRole("heading", { name: `${earlier} to ${today}` })).toBeVisible();
});

test("Bad Cases: created and updated, filters by scenario, run and set in the URL, the bulk dialog lists runs with unfiled fails", async ({
  page,
}) => {
  await signIn(page);
  await page.goto(evalUrl({ tab: "bad-cases", agent: data.agentId, run: data.runA.shortId, cls: "price" }));
  const table = page.getByRole("table", { name: "Bad Cases" });
  // A's fails are i % 4 == 1; scenario price where i % 3 == 0: i = 9, 21, ... (every 12th): 18 of 55
  await expect(table.locator("tbody tr")).toHaveCount(18);
  await expect(table.getByRole("columnheader", { name: "Created" })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "Updated" })).toBeVisible();
  await expect(page.getByLabel("Scenario")).toHaveValue("price");
  await expect(page.getByLabel("Run", { exact: true })).toHaveValue(data.runA.shortId);
  await page.getByLabel("Scenario").fill("breakfast");
  await expect(page).toHaveURL(/cls=breakfast/);
  await expect(table.locator("tbody tr")).toHaveCount(37);
  await page.getByRole("combobox", { name: /^Set\b/ }).selectOption({ label: `Pages golden ${STAMP}` });
  await expect(page).toHaveURL(new RegExp(`set=${data.setId}`));
  await expect(table.locator("tbody tr")).toHaveCount(37);
  await shot(page, { path: `${SHOTS}/eval-pages-bad-cases.png`, fullPage: true });
  await noSeriousA11yViolations(page);
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).not.toHaveURL(/cls=|run=|set=/);

  // the bulk dialog offers the runs that still have fails without a Bad Case, with how many
  await page.getByRole("button", { name: "Bad Cases for every fail of a run…" }).click();
  const dialog = page.getByRole("dialog", { name: "A Bad Case for every fail" });
  const choice = dialog.getByRole("radio", { name: new RegExp(data.runB.shortId) });
  await expect(choice).toBeVisible();
  await expect(dialog.getByText(data.runA.shortId)).toHaveCount(0);
  await expect(dialog).toContainText("55 fails without a Bad Case");
  await dialog.getByRole("searchbox").fill("no-such-run");
  await expect(dialog).toContainText("No run matching “no-such-run”");
  await dialog.getByRole("searchbox").fill(data.runB.shortId.toLowerCase());
  await choice.check();
  await shot(page, { path: `${SHOTS}/eval-pages-bulk-dialog.png` });
  await noSeriousA11yViolations(page);
  await dialog.getByRole("button", { name: "Create 55 Bad Cases" }).click();
  await expect(page.getByText("55 Bad Cases created")).toBeVisible({ timeout: 60_000 });
  await page.goto(evalUrl({ tab: "bad-cases", agent: data.agentId, run: data.runB.shortId }));
  await expect(page.getByRole("navigation", { name: "Bad Case pages" })).toContainText("1–50");
  await page.setViewportSize({ width: 420, height: 900 });
  await shot(page, { path: `${SHOTS}/eval-pages-bad-cases-narrow.png` });
  await page.setViewportSize({ width: 1440, height: 960 });
});

test("a frozen version's page starts a new run from that version", async ({ page }) => {
  await signIn(page);
  await page.goto(evalUrl({ tab: "sets", agent: data.agentId, set: data.setId, v: "1" }));
  await page.getByRole("button", { name: "New run from this version…" }).click();
  const dialog = page.getByRole("dialog", { name: "New run" });
  await expect(dialog.getByLabel("Set version")).toHaveValue(data.versionId);
  await dialog.getByText("Pasted answers", { exact: true }).click();
  await shot(page, { path: `${SHOTS}/eval-pages-new-run-from-version.png` });
  await dialog.getByRole("button", { name: "Create run" }).click();
  await expect(page).toHaveURL(/tab=runs.*run=R-/);
  await expect(page.getByText(`Pages golden ${STAMP} v1`).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Upload answers" })).toBeVisible();
});

test("the board's run at pipeline_live: a run that fails as it starts is reported (not announced as started) and opened", async ({
  page,
}) => {
  // an agent of its own with one online chat in a frozen regression pool: the board's Frozen column offers the run
  const agent = (
    await call("POST", "/api/builder/agents", { name: `Pages loop agent ${STAMP}`, workflow: llmWorkflow() })
  ).agent;
  await call("POST", `/api/builder/agents/${agent.id}/publish`, { version: 1 });
  const chat = await call("POST", `/api/agents/${agent.id}/chat`, { message: "A vegan breakfast near the office?" });
  const pool = await call("POST", "/api/eval/sets", {
    agentId: agent.id,
    name: `Pages pool ${STAMP}`,
    kind: "regression_pool",
    gateThreshold: 1,
  });
  await call("POST", `/api/eval/sets/${pool.id}/pool`, {
    traceId: chat.traceId,
    expectedPoints: ["offers a vegan breakfast dish"],
  });
  await call("POST", `/api/eval/sets/${pool.id}/versions/1/freeze`);

  // the start answers as the server does for a snapshot that cannot run: the run, status "failed", with its error
  let starts = 0;
  const START = /\/api\/trpc\/[^?]*eval\.runs\.start/;
  await page.route(START, async (route) => {
    starts++;
    const input = JSON.parse(route.request().postData() ?? "{}") as Record<string, { id: string }>;
    const run = await call("GET", `/api/eval/runs/${input["0"]!.id}`);
    await route.fulfill({
      status: 200,
      contentType: "application/json",
      body: JSON.stringify([
        {
          result: { data: { ...run, status: "failed", error: "the snapshotted workflow version cannot run: (test)" } },
        },
      ]),
    });
  });
  await signIn(page);
  await page.goto(evalUrl({ tab: "online-loop", agent: agent.id }));
  const frozen = page.getByRole("region", { name: "Frozen: 1" });
  await expect(frozen).toContainText("A vegan breakfast near the office?");
  await shot(page, { path: `${SHOTS}/eval-pages-board-frozen.png`, fullPage: true });
  await frozen.getByRole("button", { name: "Run v1 at pipeline_live" }).click();
  await expect(page.getByText(/Run R-\w+ was created but did not start/)).toBeVisible();
  await expect(page.getByText(/the snapshotted workflow version cannot run: \(test\)/)).toBeVisible();
  await expect(page.getByText(/Regression run R-\w+ started/)).toHaveCount(0);
  await expect(page).toHaveURL(/tab=runs.*run=R-/);
  await shot(page, { path: `${SHOTS}/eval-pages-board-start-failed.png` });
  expect(starts).toBe(1);
  await page.unroute(START);
  const shortId = new URL(page.url()).searchParams.get("run")!;
  await expect(page.getByRole("heading", { name: shortId })).toBeVisible();
  expect((await call("GET", `/api/eval/runs/${shortId}`)).status).toBe("created"); // created, never answering
});
