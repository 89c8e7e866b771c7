import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { api, atBothSizes, SHOTS, SIZES, signIn } from "./helpers";

/**
 * Issue 24, numbers with their uncertainty, in the browser on data this file makes (an agent, a golden set, two
 * pasted runs of one frozen version with known verdicts): the report's numbers tables give each rate's 95 % interval
 * as a range and the bars draw it; the comparison shows the paired table and its sentence above the question list.
 * Each state is looked at in 1440x900 and 1024x768 (atBothSizes: a screenshot, no serious axe violation).
 */
const STAMP = Date.now().toString(36);
const call = api();
const keys = Array.from({ length: 10 }, (_, i) => `s${String(i + 1).padStart(2, "0")}`);
const GOOD = "Pork Wonton Soup at the Lao Wang shop: the price is 12 yuan.";
type V = "pass" | "fail" | null;
// 4 both pass, 3 pass in A only, 1 pass in B only, 1 both fail, the last judged in A only: b = 3, c = 1, p = 0.625
const A: V[] = ["pass", "pass", "pass", "pass", "pass", "pass", "pass", "fail", "fail", "pass"];
const B: V[] = ["pass", "pass", "pass", "pass", "fail", "fail", "fail", "pass", "fail", null];
let agentId = "";
let runA = { id: "", shortId: "" };
let runB = { id: "", shortId: "" };

async function pastedRun(setVersionId: string, verdicts: V[]) {
  const run = await call("POST", "/api/eval/runs", { setVersionId, mode: "pasted", environment: "e2e-statistics" });
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
  agentId = (await call("POST", "/api/builder/agents", { name: `Statistics e2e ${STAMP}`, workflow: recipe.workflow }))
    .agent.id;
  const set = await call("POST", "/api/eval/sets", {
    agentId,
    name: `Statistics set ${STAMP}`,
    kind: "golden",
    gateThreshold: 5,
  });
  await call("POST", `/api/eval/sets/${set.id}/versions/1/import`, {
    format: "json",
    content: JSON.stringify(
      keys.map((key, i) => ({
        key,
        question: `Statistics question ${i + 1}: a warm breakfast near the office and its price?`,
        expected_points: ["recommends Pork Wonton Soup", "mentions the price"],
        classification: i < 5 ? "price" : "breakfast",
      })),
    ),
    mode: "append",
  });
  const v = await call("POST", `/api/eval/sets/${set.id}/versions/1/freeze`, {});
  runA = await pastedRun(v.id, A);
  runB = await pastedRun(v.id, B);
});

test("report and comparison show the intervals and the paired table, at 1440x900 and 1024x768", async ({ page }) => {
  await page.setViewportSize(SIZES[0]);
  await signIn(page);

  // the report of B: 5 of 9 judged pass -> 95 % interval 27-81 % (statsmodels: 0.2667-0.8112), one unjudged
  await page.goto(`/eval?tab=runs&run=${runB.shortId}`);
  await expect(page.locator('dt:text-is("Human-confirmed pass rate") + dd + dd')).toContainText(
    "of 9 judged, 95 % interval 27–81%",
  );
  // the numbers under the charts are folded away: open them as a reader would
  for (const summary of await page.locator("summary", { hasText: "The numbers" }).all()) await summary.click();
  const table = page.getByRole("table", { name: "Pass rates by tier" });
  await expect(table).toContainText("27–81%");
  await expect(table).toContainText("n 9");
  const chart = page.getByRole("img", { name: "Machine and human-confirmed pass rate by scenario" });
  await atBothSizes(page, "statistics-report", {
    prepare: async () => {
      await chart.scrollIntoViewIfNeeded();
      // machine bars of every scenario get an error bar (every question has a suggestion)
      await expect(chart.locator(".recharts-errorBar").first()).toBeAttached();
      // the pointer away from the charts: a hover tooltip left open over the legend is not the page's state
      await page.mouse.move(0, 0);
    },
  });

  // the comparison: the paired table and its sentence, above the question list
  await page.goto(`/eval?tab=runs&agent=${agentId}&view=compare&a=${runA.shortId}&b=${runB.shortId}`);
  const paired = page.locator("#paired");
  await expect(page.getByTestId("paired-sentence")).toHaveText(
    "B is better on 1 question and worse on 3; the difference is not significant (p = 0.63)",
  );
  await expect(paired.getByRole("cell", { name: "both pass" })).toHaveText("4");
  await expect(paired.getByRole("cell", { name: "pass in A only" })).toHaveText("3");
  await expect(paired.getByRole("cell", { name: "pass in B only" })).toHaveText("1");
  await expect(paired.getByRole("cell", { name: "both fail" })).toHaveText("1");
  await expect(paired).toContainText(`${runA.shortId} 49–94% (n 10)`);
  await atBothSizes(page, "statistics-compare", {
    check: async () => {
      const pairedBox = await paired.boundingBox();
      const listBox = await page.getByRole("group", { name: "Show questions" }).boundingBox();
      expect(pairedBox!.y).toBeLessThan(listBox!.y);
    },
  });
});
