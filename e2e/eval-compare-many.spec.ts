import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { api, atBothSizes, SHOTS, SIZES, signIn } from "./helpers";

/**
 * Issue 24, many runs and the trend, in the browser on data this file makes (an agent, a golden set, three pasted
 * runs of one frozen version with known verdicts): three runs are picked in the runs list and compared in the
 * question x run grid, whose filters (changed only, failing in the latest) and sticky question column and header work
 * by keyboard; the set page charts the pass rate over time with each run's interval as an error bar and the same
 * numbers in a table. Each state is looked at in 1440x900 and 1024x768 (atBothSizes: a screenshot, no serious axe
 * violation).
 */
const STAMP = Date.now().toString(36);
const call = api();
const keys = Array.from({ length: 6 }, (_, i) => `m${i + 1}`);
const GOOD = "Pork Wonton Soup at the Lao Wang shop: the price is 12 yuan.";
type V = "pass" | "fail" | null;
// m2 pass, pass, fail and m3 fail, pass, fail change; the latest run fails m2, m3 and m6 (m6 failed throughout)
const RUNS: V[][] = [
  ["pass", "pass", "fail", "pass", "pass", "fail"],
  ["pass", "pass", "pass", "pass", null, "fail"],
  ["pass", "fail", "fail", "pass", "pass", "fail"],
];
let agentId = "";
let setId = "";
const runs: Array<{ id: string; shortId: string }> = [];

async function pastedRun(setVersionId: string, verdicts: V[]) {
  const run = await call("POST", "/api/eval/runs", { setVersionId, mode: "pasted", environment: "e2e-many" });
  await call("POST", `/api/eval/runs/${run.id}/answers`, { answers: keys.map((key) => ({ key, answer: GOOD })) });
  const items: Array<{ id: string; key: string }> = (await call("GET", `/api/eval/runs/${run.id}/items?limit=100`))
    .items;
  for (const item of items) {
    const verdict = verdicts[keys.indexOf(item.key)];
    if (verdict)
      await call(
        "PUT",
        `/api/eval/runs/${run.id}/items/${item.id}/verdict`,
        verdict === "pass" ? { verdict } : { verdict, basis: "the price is wrong", attribution: "data" },
      );
  }
  return run as { id: string; shortId: string };
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  const recipe = await call("GET", "/api/builder/recipes/minimal");
  agentId = (await call("POST", "/api/builder/agents", { name: `Many runs e2e ${STAMP}`, workflow: recipe.workflow }))
    .agent.id;
  const set = await call("POST", "/api/eval/sets", {
    agentId,
    name: `Many runs set ${STAMP}`,
    kind: "golden",
    gateThreshold: 4,
  });
  setId = set.id;
  await call("POST", `/api/eval/sets/${set.id}/versions/1/import`, {
    format: "json",
    content: JSON.stringify(
      keys.map((key, i) => ({
        key,
        question: `Many-run question ${i + 1}: a warm breakfast near the office and its price?`,
        expected_points: ["recommends Pork Wonton Soup", "mentions the price"],
      })),
    ),
    mode: "append",
  });
  const v = await call("POST", `/api/eval/sets/${set.id}/versions/1/freeze`, {});
  for (const verdicts of RUNS) runs.push(await pastedRun(v.id, verdicts));
});

test("runs picked in the list open the question x run grid, whose filters work by keyboard, at 1440x900 and 1024x768", async ({
  page,
}) => {
  await page.setViewportSize(SIZES[0]);
  await signIn(page);
  await page.goto(`/eval?tab=runs&agent=${agentId}`);
  for (const r of runs) await page.getByRole("checkbox", { name: `Compare ${r.shortId}` }).check();
  await page.getByRole("link", { name: "Compare 3 selected runs" }).click();

  const grid = page.getByRole("region", { name: "Questions by run" });
  await expect(grid.locator("tbody tr")).toHaveCount(6);
  // each run's rate with its interval: run 2 passed 4 of 5 judged (scipy wilson (4, 5): 0.3755-0.9638)
  const rates = page.getByRole("table", { name: "Runs compared" });
  await expect(rates.getByRole("row").nth(2)).toContainText("80%");
  await expect(rates.getByRole("row").nth(2)).toContainText("38–96%");
  // the latest run is the last column; a cell says the verdict and links the item
  await expect(grid.getByRole("columnheader").last()).toContainText("latest");
  await expect(grid.getByRole("link", { name: `m2 in ${runs[2]!.shortId}: fail` })).toBeVisible();
  // the scrolling region takes the keyboard focus
  await grid.focus();
  await expect(grid).toBeFocused();
  await atBothSizes(page, "compare-many", {
    prepare: () => page.mouse.move(0, 0),
    // sticky header and question column at each size, so a long grid keeps its labels while it scrolls
    check: async () => {
      expect(await grid.locator("thead").evaluate((e) => getComputedStyle(e).position)).toBe("sticky");
      expect(
        await grid
          .locator("tbody th")
          .first()
          .evaluate((e) => getComputedStyle(e).position),
      ).toBe("sticky");
    },
  });

  // filters, by keyboard: changed only (m2, m3), then also failing in the latest (still m2, m3)
  await page.setViewportSize(SIZES[0]);
  const changed = page.getByRole("button", { name: /^Changed only/ });
  await changed.focus();
  await page.keyboard.press("Enter");
  await expect(changed).toHaveAttribute("aria-pressed", "true");
  await expect(grid.locator("tbody tr")).toHaveCount(2);
  await expect(page).toHaveURL(/changed=1/);
  await changed.press("Enter");
  const failing = page.getByRole("button", { name: /^Failing in the latest/ });
  await failing.focus();
  await page.keyboard.press(" ");
  await expect(failing).toHaveAttribute("aria-pressed", "true");
  await expect(grid.locator("tbody tr")).toHaveCount(3);
  await expect(grid.locator("tbody th")).toContainText(["m2", "m3", "m6"]);
  await atBothSizes(page, "compare-many-failing", { axe: false });
});

test("the set page charts the pass rate over time with intervals, at 1440x900 and 1024x768", async ({ page }) => {
  await page.setViewportSize(SIZES[0]);
  await signIn(page);
  await page.goto(`/eval?tab=sets&agent=${agentId}&set=${setId}`);
  const chart = page.getByRole("img", { name: /Human-confirmed pass rate of Many runs set/ });
  await chart.scrollIntoViewIfNeeded();
  // labelled points: the accessible name lists every run's rate
  await expect(chart).toHaveAttribute("aria-label", new RegExp(`${runs[0]!.shortId} 66.7%.*${runs[2]!.shortId} 50%`));
  await expect(chart.locator(".recharts-errorBar").first()).toBeAttached();
  // the table alternative: run, agent version, rate, interval, n (run 1: 4 passes of 6 judged, scipy wilson 0.29999-0.90323)
  const table = page.getByRole("table", { name: "Pass rate by run" });
  await expect(table.locator("tbody tr")).toHaveCount(3);
  await expect(table.locator("tbody tr").first()).toContainText(runs[0]!.shortId);
  await expect(table.locator("tbody tr").first()).toContainText("30–90%");
  await expect(table.locator("tbody tr").first()).toContainText("6 / 6");
  await atBothSizes(page, "set-trend", {
    prepare: async () => {
      await chart.scrollIntoViewIfNeeded();
      await page.mouse.move(0, 0);
    },
  });
});
