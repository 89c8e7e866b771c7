import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { api, atBothSizes, expectNoSeriousA11yViolations, shot, SHOTS, signIn, SIZES } from "./helpers";

/**
 * Issue 24, cost, in the browser: an in-platform run answered by the offline provider (model `offline`, estimated
 * tokens); the report says "no price for offline" while the table is empty; an admin sets the price in Settings (a
 * form, not JSON); the report and the annotation view's item then show the money with its currency. Repeated answers:
 * a run created in the dialog with 2 answers per question shows its consistency in the report and, in the annotation
 * view, the other answer on demand. Each state is looked at in 1440x900 and 1024x768 (atBothSizes: a screenshot, no
 * serious axe violation).
 */
const STAMP = Date.now().toString(36);
const call = api();
let run = { id: "", shortId: "" };
let agentId = "";
let versionId = "";

async function waitForStatus(runId: string, status: string) {
  const until = Date.now() + 90_000;
  for (;;) {
    const r = await call("GET", `/api/eval/runs/${runId}`);
    if (r.status === status) return r;
    if (Date.now() > until) throw new Error(`run ${runId} stayed ${r.status}`);
    await new Promise((res) => setTimeout(res, 250));
  }
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  await call("PUT", "/api/admin/model-prices", { prices: [] });
  const recipe = await call("GET", "/api/builder/recipes/minimal");
  agentId = (await call("POST", "/api/builder/agents", { name: `Cost e2e ${STAMP}`, workflow: recipe.workflow })).agent
    .id;
  const set = await call("POST", "/api/eval/sets", {
    agentId,
    name: `Cost set ${STAMP}`,
    kind: "golden",
    gateThreshold: 1,
  });
  await call("POST", `/api/eval/sets/${set.id}/versions/1/import`, {
    format: "json",
    content: JSON.stringify(
      [1, 2].map((i) => ({
        key: `c${i}`,
        question: `Cost question ${i}: a warm breakfast near the office and its price?`,
        expected_points: ["recommends a breakfast"],
      })),
    ),
    mode: "append",
  });
  const v = await call("POST", `/api/eval/sets/${set.id}/versions/1/freeze`, {});
  versionId = v.id;
  run = await call("POST", "/api/eval/runs", { setVersionId: v.id, mode: "in_platform", tier: "invoke" });
  await call("POST", `/api/eval/runs/${run.id}/start`, {});
  await waitForStatus(run.id, "awaiting_review");
});

const costOnReport = (page: Page) => page.locator('dt:text-is("Cost") + dd');

test("cost: the Settings price form, the report and the item, at 1440x900 and 1024x768", async ({ page }) => {
  await page.setViewportSize(SIZES[0]);
  await signIn(page);

  // no price yet: the report names the model instead of showing 0
  await call("PUT", "/api/admin/model-prices", { prices: [] });
  await page.goto(`/eval?tab=runs&run=${run.shortId}`);
  await expect(costOnReport(page)).toHaveText("no price for offline");

  // the Settings form: add a row, type the price, save
  await page.goto("/settings");
  const form = page.getByRole("form", { name: "Model prices" });
  await expect(form).toContainText("No prices yet");
  await form.getByRole("button", { name: "Add a model" }).click();
  await form.getByRole("textbox", { name: "Model 1" }).fill("offline");
  await form.getByRole("textbox", { name: "Prompt price per million tokens, offline" }).fill("abc");
  await form.getByRole("textbox", { name: "Completion price per million tokens, offline" }).fill("4000");
  await form.getByRole("button", { name: "Save prices" }).click();
  await expect(form.getByRole("alert")).toHaveText("offline: the prompt price must be a number ≥ 0");
  await form.getByRole("textbox", { name: "Prompt price per million tokens, offline" }).fill("1000");
  await form.getByRole("button", { name: "Save prices" }).click();
  await expect(form.getByRole("status")).toHaveText("Saved.");
  expect(await call("GET", "/api/admin/model-prices")).toEqual({
    prices: [{ model: "offline", promptPerMillion: 1000, completionPerMillion: 4000, currency: "USD" }],
    source: "settings",
  });
  await atBothSizes(page, "cost-settings", {
    prepare: () => page.getByRole("heading", { name: "Model prices" }).scrollIntoViewIfNeeded(),
  });

  // the report: money with its currency, answering and judging apart
  await page.setViewportSize(SIZES[0]);
  const report = await call("GET", `/api/eval/runs/${run.id}/report`);
  expect(report.cost.currency).toBe("USD");
  await page.goto(`/eval?tab=runs&run=${run.shortId}`);
  await expect(costOnReport(page).first()).toHaveText(/^USD \d/);
  await expect(page.locator('dt:text-is("Cost (judging)") + dd')).toHaveText("USD 0.00");
  await atBothSizes(page, "cost-report", {
    prepare: () => page.getByRole("heading", { name: "Latency and tokens" }).scrollIntoViewIfNeeded(),
  });

  // the annotation view: the item's cost
  await page.setViewportSize(SIZES[0]);
  await page.goto(`/eval?tab=annotation&run=${run.shortId}`);
  const cost = page.getByRole("region", { name: "Cost" });
  await expect(cost).toContainText(/Answering\s*USD \d/);
  await expect(cost).toContainText("Total");
  await atBothSizes(page, "cost-item", { prepare: () => cost.scrollIntoViewIfNeeded() });
});

test("repeats: the create-run dialog, consistency in the report, the other answers, at 1440x900 and 1024x768", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize(SIZES[0]);
  await signIn(page);
  await page.goto(`/eval?tab=runs&agent=${agentId}`);
  await page.getByRole("button", { name: "New run" }).click();
  const dialog = page.getByRole("dialog", { name: "New run" });
  await dialog.getByLabel("Set version").selectOption(versionId);
  await dialog.getByLabel("Answers per question").fill("2");
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await shot(page, { path: `${SHOTS}/repeats-create-run-${size.width}x${size.height}.png` });
    await expectNoSeriousA11yViolations(page);
  }
  await dialog.getByRole("button", { name: "Create and start" }).click();
  await expect(page).toHaveURL(/tab=runs.*run=R-/);
  const repeated = new URL(page.url()).searchParams.get("run")!;
  expect((await call("GET", `/api/eval/runs/${repeated}`)).repeats).toBe(2);
  await expect(page.getByText("awaiting review").first()).toBeVisible({ timeout: 90_000 });
  await expect(page.getByRole("heading", { name: "Consistency" })).toBeVisible();
  await expect(page.getByText("Every question got the same suggestion from each of its answers.")).toBeVisible();
  await atBothSizes(page, "repeats-report", {
    prepare: () => page.getByRole("heading", { name: "Consistency" }).scrollIntoViewIfNeeded(),
  });

  // the annotation view: the other answer on demand (folded until asked for)
  await page.setViewportSize(SIZES[0]);
  await page.goto(`/eval?tab=annotation&run=${repeated}`);
  const summary = page.locator("summary", { hasText: "Other answers (1)" });
  await expect(summary).toBeVisible();
  const list = page.getByRole("list", { name: "Other answers" });
  await expect(list).toBeHidden();
  await summary.click();
  await expect(list).toBeVisible();
  await expect(list).toContainText("Answer 2");
  await expect(list).toContainText("machine:");
  await atBothSizes(page, "repeats-item", { prepare: () => summary.scrollIntoViewIfNeeded() });
});
