import { execFile } from "node:child_process";
import path from "node:path";
import { expect, test } from "@playwright/test";
import {
  ADMIN_TOKEN,
  api,
  createSampleAgent,
  E2E_BASE,
  expectNoSeriousA11yViolations as noSeriousA11yViolations,
  ROOT,
  shot,
  SHOTS,
  signIn,
} from "./helpers";

/**
 * The golden-set flow a release manager and an annotator walk in the browser: a copy of the seeded sample agent and
 * its frozen 30-question gate set (createSampleAgent), answered at pipeline_live against the meal-scenes sample app
 * (the e2e server's second web server).
 */
test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 1440, height: 960 } });

const STAMP = Date.now().toString(36);
const AGENT = `Meal recommendation ${STAMP}`;
const call = api();
let agentId = "";
let setId = "";

test.beforeAll(async () => {
  ({ agentId, setId } = await createSampleAgent(call, AGENT));
});

function gateCli(runId: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [
        path.join(ROOT, "node_modules/tsx/dist/cli.mjs"),
        path.join(ROOT, "scripts/check_eval_golden_gate.ts"),
        "--run-id",
        runId,
      ],
      { cwd: ROOT, env: { ...process.env, FLOWBENCH_URL: E2E_BASE, FLOWBENCH_TOKEN: ADMIN_TOKEN } },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
  });
}

test("a release manager and an annotator take the gate set through a run, verdicts, the gate, a comparison and a Bad Case", async ({
  page,
}) => {
  // a limit, not a measure: 186 s in a fresh-clone CI run at b53ab93; past 240 s on the same machine when its build
  // took 265 CPU s instead of 201 (a slower host), with every stage beside it
  test.setTimeout(420_000);
  await signIn(page);

  // /eval opens on the online feedback loop tab; the tabs are ARIA tabs
  await page.getByRole("link", { name: "Evaluation" }).click();
  await expect(page).toHaveURL(/\/eval/);
  await expect(page.getByRole("tab", { name: "Online feedback loop" })).toHaveAttribute("aria-selected", "true");
  const agentBox = page.getByRole("combobox", { name: "Agent" });
  await expect(agentBox).toHaveValue(/.+/);
  await noSeriousA11yViolations(page);
  // this spec's agent, chosen in the selector (the server holds other specs' agents too)
  await agentBox.click();
  await agentBox.fill(AGENT);
  await page.getByRole("option", { name: AGENT }).click();
  await expect(page).toHaveURL(new RegExp(`agent=${agentId}`));
  await expect(agentBox).toHaveValue(AGENT);

  // sets: the sample agent's frozen gate set
  await page.getByRole("tab", { name: "Evaluation sets" }).click();
  await expect(page).toHaveURL(/tab=sets/);
  await expect(page.getByRole("tab", { name: "Evaluation sets" })).toHaveAttribute("aria-selected", "true");
  await page.getByRole("link", { name: "Meal recommendation golden set" }).click();
  await expect(page.getByText("Gate: at least 26 human-confirmed passes")).toBeVisible();
  await shot(page, { path: `${SHOTS}/eval-set.png`, fullPage: true });
  await noSeriousA11yViolations(page);

  // a draft version 2, which the create-run form must not offer
  await page.getByRole("button", { name: "New version from this" }).first().click();
  await expect(page).toHaveURL(/v=2/);
  await expect(page.getByText("v2 · draft")).toBeVisible();
  await expect(page.getByRole("button", { name: "Add sample" })).toBeEnabled();
  await shot(page, { path: `${SHOTS}/eval-version-draft.png`, fullPage: true });
  await noSeriousA11yViolations(page);

  await page.getByRole("tab", { name: "Runs" }).click();
  await page.getByRole("button", { name: "New run" }).click();
  const dialog = page.getByRole("dialog", { name: "New run" });
  const versionSelect = dialog.getByLabel("Set version");
  await expect(versionSelect.locator("option", { hasText: "v1" })).toHaveCount(1);
  await expect(versionSelect.locator("option", { hasText: "v2" })).toHaveCount(0);
  await dialog.getByLabel("pipeline live").check();
  await dialog.getByLabel("Environment").fill("e2e");
  await shot(page, { path: `${SHOTS}/eval-create-run.png` });
  await noSeriousA11yViolations(page);
  await dialog.getByRole("button", { name: "Create and start" }).click();

  // the run page: live progress until every question is answered
  await expect(page).toHaveURL(/tab=runs.*run=R-/);
  const runId = new URL(page.url()).searchParams.get("run")!;
  const progress = page.getByRole("progressbar", { name: /Answered questions of run/ });
  await expect(progress).toHaveAttribute("aria-valuemax", "30");
  await expect(progress).toHaveAttribute("aria-valuenow", "30", { timeout: 120_000 });
  await expect(page.getByText("awaiting review").first()).toBeVisible();
  await expect(page.getByRole("region", { name: "Release gate" })).toBeVisible();
  await shot(page, { path: `${SHOTS}/eval-run-answered.png`, fullPage: true });
  await page.getByRole("link", { name: "Runs", exact: true }).click();
  await expect(page.getByRole("table", { name: "Runs" })).toBeVisible();
  await noSeriousA11yViolations(page);
  await page.goBack();

  // annotation: adopt, then spot-check with the keyboard
  await page.getByRole("link", { name: "Judge answers" }).click();
  await expect(page.getByRole("tab", { name: "Annotation" })).toHaveAttribute("aria-selected", "true");
  await page.getByRole("button", { name: "Adopt machine suggestions" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Adopt all machine suggestions?" });
  await expect(confirm).toContainText(/become verdicts/);
  await confirm.getByRole("button", { name: /^Adopt \d+$/ }).click();
  await expect(page).toHaveURL(/spot=1/);
  await expect(page.getByRole("button", { name: "Spot-check" })).toHaveAttribute("aria-pressed", "true");

  // the first spot-check item: a fail through the dialog (F, basis, attribution, Ctrl+Enter)
  await expect(page.getByRole("button", { name: /^Pass/ })).toBeEnabled();
  await page.locator("body").press("f");
  const fail = page.getByRole("dialog", { name: "Fail: what is wrong?" });
  await expect(fail).toBeVisible();
  await fail.getByRole("textbox", { name: "Basis" }).fill("Names no dish from the live menu");
  await fail.getByRole("radio", { name: /retrieval/ }).check();
  await shot(page, { path: `${SHOTS}/eval-fail-dialog.png` });
  await fail.getByRole("textbox", { name: "Basis" }).press("Control+Enter");
  await expect(fail).toBeHidden();
  // the page moves on before the server answers; "Undo your fail" is offered once the verdict is stored
  await expect(page.getByRole("button", { name: /^Undo your fail on q\d+/ })).toBeVisible();

  // the rest without a verdict: the first of them opened, then P on each, the view moves on by itself (the open
  // spot-check item stays open when the list changes, and a P on it would judge it too)
  await page.getByRole("button", { name: "No verdict" }).click();
  await page.getByRole("list", { name: "Queue" }).locator('a[href*="verdict=none"]').first().click();
  const judged = page.getByRole("progressbar", { name: "Questions with a verdict" });
  for (let i = 0; i < 30; i++) {
    if ((await judged.getAttribute("aria-valuenow")) === "30") break;
    await expect(page.getByRole("button", { name: /^Pass/ })).toBeEnabled();
    await page.locator("body").press("p");
    await page.waitForTimeout(150);
  }
  await expect(judged).toHaveAttribute("aria-valuenow", "30", { timeout: 20_000 });
  // the fail typed through the dialog is stored with its basis and attribution, as a person's verdict
  // (compared as a whole, so a failure shows every fail that was stored)
  const fails = await call("GET", `/api/eval/runs/${runId}/items?verdict=fail&limit=500`);
  const human = (fails.items as Array<{ verdict: { source: string; attribution: string; basis: string } }>)
    .map(({ verdict: { source, attribution, basis } }) => ({ source, attribution, basis }))
    .filter((v) => v.source === "human");
  expect(human).toEqual([{ source: "human", attribution: "retrieval", basis: "Names no dish from the live menu" }]);
  await page.getByRole("button", { name: "All" }).click();
  await page.locator("body").press("?");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
  await shot(page, { path: `${SHOTS}/eval-shortcuts.png` });
  await page.keyboard.press("Escape");
  await shot(page, { path: `${SHOTS}/eval-annotation.png` });
  await noSeriousA11yViolations(page);

  // the gate banner says what the gate CLI says
  await page.getByRole("link", { name: "Report" }).click();
  const banner = page.getByRole("region", { name: "Release gate" });
  await expect(banner).toBeVisible();
  const cli = await gateCli(runId);
  const bannerState = await banner.getAttribute("data-gate");
  // the adopted spot-check items were left to the machine here, so the gate may still be pending: the CLI then says
  // PENDING (exit 1), and the banner says the same
  const cliState = cli.code === 0 ? "pass" : /PENDING/.test(cli.out) ? "pending" : "fail";
  expect(cliState).toBe(bannerState);
  await expect(banner).toContainText(String(bannerState).toUpperCase());
  // the report's charts, with their labels
  await expect(page.getByRole("img", { name: "Machine and human-confirmed pass rate by scenario" })).toBeVisible();
  await expect(page.getByRole("img", { name: "Failed questions by attribution" })).toBeVisible();
  await shot(page, { path: `${SHOTS}/eval-report.png`, fullPage: true });
  await noSeriousA11yViolations(page);

  // re-run the same batch and compare
  await page.getByRole("button", { name: "Re-run same batch" }).click();
  await expect(page).not.toHaveURL(new RegExp(`run=${runId}`));
  const rerunId = new URL(page.url()).searchParams.get("run")!;
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page.getByRole("progressbar", { name: /Answered questions of run/ })).toHaveAttribute(
    "aria-valuenow",
    "30",
    { timeout: 120_000 },
  );
  await call.expectStatus(200, "POST", `/api/eval/runs/${rerunId}/adopt`, {});
  await page.goto(`/eval?tab=runs&agent=${agentId}&view=compare&a=${runId}&b=${rerunId}`);
  await expect(page.getByRole("heading", { name: `${runId} → ${rerunId}` })).toBeVisible();
  await expect(page.getByRole("table", { name: "Questions of both runs" })).toBeVisible();
  await page.getByRole("table", { name: "Questions of both runs" }).getByRole("button").first().click();
  await expect(page.getByRole("region", { name: new RegExp(`^A · ${runId}`) })).toBeVisible();
  await shot(page, { path: `${SHOTS}/eval-compare.png`, fullPage: true });
  await noSeriousA11yViolations(page);
  await page.getByRole("link", { name: "Runs", exact: true }).click();
  await page.getByRole("link", { name: "Usage" }).click();
  await expect(page.getByRole("img", { name: "Runs and answered questions by day" })).toBeVisible();
  await shot(page, { path: `${SHOTS}/eval-usage.png`, fullPage: true });
  await noSeriousA11yViolations(page);

  // a fail becomes a Bad Case and moves through its statuses
  await page.goto(`/eval?tab=annotation&agent=${agentId}&run=${runId}&verdict=fail`);
  await page.getByRole("button", { name: "Make Bad Case" }).click();
  await expect(page.getByText("Bad Case created")).toBeVisible();
  await page.getByRole("tab", { name: "Bad Case" }).click();
  const status = page.getByRole("combobox", { name: /Change the status of/ }).first();
  await status.selectOption("fixing");
  await expect(page.getByText("Bad Case is fixing")).toBeVisible();
  await status.selectOption("fixed");
  await expect(page.getByText("Bad Case is fixed")).toBeVisible();
  await noSeriousA11yViolations(page);
  await page.getByRole("table", { name: "Bad Cases" }).getByRole("link").first().click();
  await expect(page.getByRole("button", { name: "Re-run the same batch" })).toBeVisible();
  await shot(page, { path: `${SHOTS}/eval-bad-case.png`, fullPage: true });
  await noSeriousA11yViolations(page);
});

const VIEWER = `viewer-${STAMP}@e2e.flowbench.test`;

test("a viewer reads but cannot judge or manage; the server refuses too", async ({ page }) => {
  await call.expectStatus(200, "POST", "/api/trpc/admin.users.create", {
    email: VIEWER,
    password: "viewer-password-1",
    role: "viewer",
  });
  await signIn(page, { email: VIEWER, password: "viewer-password-1" });
  await page.goto(`/eval?tab=runs&agent=${agentId}`);
  await expect(page.getByRole("button", { name: "New run" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "New run" })).toHaveAttribute("title", /your role is viewer/);
  await page.goto(`/eval?tab=sets&agent=${agentId}`);
  await expect(page.getByRole("button", { name: "New set" })).toBeDisabled();
  const runs = await call("GET", `/api/eval/runs?agentId=${agentId}`);
  await page.goto(`/eval?tab=annotation&agent=${agentId}&run=${runs.items[0].shortId}`);
  await expect(page.getByRole("button", { name: /Pass/ })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Adopt machine suggestions" })).toBeDisabled();
  // a Bad Case's status is a badge for the viewer (with the reason), not a select that cannot be used
  await page.goto(`/eval?tab=bad-cases&agent=${agentId}`);
  const badCases = page.getByRole("table", { name: "Bad Cases" });
  await expect(badCases.locator("tbody tr").first()).toBeVisible();
  await expect(badCases.getByRole("combobox")).toHaveCount(0);
  await expect(badCases.getByTitle(/your role is viewer/).first()).toContainText("fixed");
  await shot(page, { path: `${SHOTS}/eval-viewer-bad-cases.png` });
  // the server still refuses what the page hides: the viewer's own session cannot create a run
  const refused = await page.evaluate(
    async () =>
      (
        await fetch("/api/eval/runs", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ setVersionId: "x", mode: "pasted" }),
        })
      ).status,
  );
  expect(refused).toBe(403);
  await page.setViewportSize({ width: 800, height: 900 });
  await shot(page, { path: `${SHOTS}/eval-viewer-narrow.png`, fullPage: true });
});

test("a pasted run is closed from its page", async ({ page }) => {
  const version = await call("GET", `/api/eval/sets/${setId}/versions/1`);
  const samples = (await call("GET", `/api/eval/sets/${setId}/versions/1/samples?limit=5`)).items;
  const run = await call("POST", "/api/eval/runs", {
    setVersionId: version.id,
    mode: "pasted",
    environment: "e2e-close",
  });
  await call("POST", `/api/eval/runs/${run.id}/answers`, {
    answers: samples
      .slice(0, 2)
      .map((s: { key: string }) => ({ key: s.key, answer: "I recommend the scallion pancake." })),
  });

  await signIn(page);
  await page.goto(`/eval?tab=runs&agent=${agentId}&run=${run.shortId}`);
  await page.getByRole("button", { name: "Close answering" }).click();
  const dialog = page.getByRole("alertdialog").or(page.getByRole("dialog"));
  await expect(dialog).toContainText("28 of 30 questions have no answer yet");
  await shot(page, { path: `${SHOTS}/eval-close-answering-confirm.png` });
  await dialog.getByRole("button", { name: "Close answering" }).click();
  await expect(page.getByText(/awaiting review/i).first()).toBeVisible();
  await shot(page, { path: `${SHOTS}/eval-closed-run.png`, fullPage: true });
  const closed = await call("GET", `/api/eval/runs/${run.id}`);
  expect(closed.status).toBe("awaiting_review");
  expect(closed.progress).toMatchObject({ answered: 2, failed: 28 });
});
