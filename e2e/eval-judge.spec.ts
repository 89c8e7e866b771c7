import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { api, atBothSizes, createSampleAgent, SHOTS, SIZES, signIn } from "./helpers";

/**
 * Issue 22 in the browser: a set's Judge card and "Change judge…". A copy of the sample agent gets a second set with 26
 * questions answered three ways (tests/integration/judges.test.ts's calibration plan: 24 typed verdicts, kappas
 * built-in 0.42, Python judge 0.67). On the set page the card shows the built-in judge's calibration; the switch to a
 * Python judge agent (no suggestions there yet) runs the comparison job with its progress and switches; the way back
 * to the worse built-in judge is refused with the figures, then forced with a reason. Each state at 1440x900 and
 * 1024x768 with axe (atBothSizes).
 */
const STAMP = Date.now().toString(36);
const call = api();
const POINTS = ["recommends a breakfast dish", "mentions the price"];
const GOOD = "I recommend the scallion pancake breakfast dish; the price is 12 yuan.";
const MIXED = "I recommend the scallion pancake breakfast dish, 12元.";
const BAD = "Sorry, I cannot help with that.";
type Row = [answer: string, scenario: string, human: "pass" | "fail" | null];
const PLAN: Row[] = [
  ...Array.from({ length: 10 }, (): Row => [GOOD, "breakfast", "pass"]),
  ...Array.from({ length: 2 }, (): Row => [GOOD, "breakfast", "fail"]),
  ...Array.from({ length: 4 }, (): Row => [MIXED, "price", "fail"]),
  [MIXED, "price", "pass"],
  ...Array.from({ length: 6 }, (): Row => [BAD, "price", "fail"]),
  [BAD, "price", "pass"],
  [GOOD, "breakfast", null],
  [BAD, "price", null],
];
let agentId = "";
let setId = "";
let judgeName = "";

test.beforeAll(async () => {
  test.setTimeout(240_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  ({ agentId } = await createSampleAgent(call, `Judge e2e ${STAMP}`));
  const set = await call("POST", "/api/eval/sets", {
    agentId,
    name: `Judged set ${STAMP}`,
    kind: "golden",
    gateThreshold: 20,
  });
  setId = set.id;
  await call("PATCH", `/api/eval/sets/${setId}`, { judge: { type: "builtin" } });
  const keys = PLAN.map((_, i) => `j${String(i + 1).padStart(2, "0")}`);
  await call("POST", `/api/eval/sets/${setId}/versions/1/import`, {
    format: "json",
    content: JSON.stringify(
      PLAN.map(([, scenario], i) => ({
        key: keys[i],
        question: `What should I eat for breakfast near the office (${i + 1})?`,
        expected_points: POINTS,
        classification: scenario,
      })),
    ),
    mode: "append",
  });
  const v = await call("POST", `/api/eval/sets/${setId}/versions/1/freeze`, {});
  const run = await call("POST", "/api/eval/runs", { setVersionId: v.id, mode: "pasted", environment: "e2e-judge" });
  await call("POST", `/api/eval/runs/${run.id}/answers`, {
    answers: PLAN.map(([answer], i) => ({ key: keys[i], answer })),
  });
  const items: Array<{ id: string; key: string }> = (await call("GET", `/api/eval/runs/${run.id}/items?limit=100`))
    .items;
  for (const item of items) {
    const human = PLAN[keys.indexOf(item.key)]![2];
    if (human)
      await call(
        "PUT",
        `/api/eval/runs/${run.id}/items/${item.id}/verdict`,
        human === "pass"
          ? { verdict: "pass" }
          : { verdict: "fail", basis: "the price is missing", attribution: "data" },
      );
  }
  const recipe = await call("GET", "/api/builder/recipes/judge_python");
  judgeName = `Python judge ${STAMP}`;
  await call("POST", "/api/builder/agents", { name: judgeName, kind: "judge", workflow: recipe.workflow });
});

test("the Judge card: calibration, a switch through the comparison job, a refused switch forced with a reason", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize(SIZES[0]);
  await signIn(page);
  await page.goto(`/eval?tab=sets&agent=${agentId}&set=${setId}`);
  const card = page.getByRole("region", { name: "Judge", exact: true });
  await expect(card.getByTestId("judge-label")).toHaveText("built-in point coverage");
  // built-in on the 24 typed verdicts: kappa 0.42 (statsmodels cohens_kappa [[11, 6], [1, 6]] = 0.4167), recall 6 of 12
  await expect(card.locator('dt:text-is("Cohen\'s κ") + dd')).toHaveText("0.42");
  await expect(card.locator('dt:text-is("Fail recall") + dd')).toHaveText("50%");
  await expect(card.locator('dt:text-is("Verdicts compared (n)") + dd')).toHaveText("24");
  await expect(card.getByRole("table", { name: "The judge against people per scenario" })).toContainText("breakfast");
  await expect(card).not.toContainText("too few verdicts");
  await atBothSizes(page, "eval-judge-card", { prepare: () => card.scrollIntoViewIfNeeded() });

  // change: the Python judge has not judged these items; the dialog says so before confirming
  await page.setViewportSize(SIZES[0]);
  await card.getByRole("button", { name: "Change judge…" }).click();
  const dialog = page.getByRole("dialog", { name: "Change the set's judge" });
  await dialog.getByLabel("New judge").selectOption({ label: `${judgeName} v1` });
  await expect(dialog.getByRole("table", { name: /against built-in point coverage/ })).toContainText(
    "no suggestions yet",
  );
  await expect(dialog).toContainText("has not judged this set's 24 human-typed items yet");
  await atBothSizes(page, "eval-judge-compare");
  await dialog.getByRole("button", { name: "Switch judge" }).click();
  // 202: the comparison job judges the 24 items through the queue, its progress shows, then the switch
  const progress = page.getByRole("dialog", { name: "Comparing the judges" });
  await expect(progress.or(page.getByText("Judge switched"))).toBeVisible();
  await expect(page.getByText("Judge switched")).toBeVisible({ timeout: 180_000 });
  await expect(card.getByTestId("judge-label")).toHaveText(`${judgeName} v1`);
  await expect(card.locator('dt:text-is("Cohen\'s κ") + dd')).toHaveText("0.67");

  // back to the built-in judge: it agrees less with people, refused with the figures; forced with a reason
  await card.getByRole("button", { name: "Change judge…" }).click();
  await dialog.getByLabel("New judge").selectOption({ label: "Built-in point coverage (lexical)" });
  await expect(dialog.getByRole("table", { name: /against/ })).toContainText("0.42");
  await dialog.getByRole("button", { name: "Switch judge" }).click();
  const refused = page.getByRole("dialog", { name: "The switch was refused" });
  await expect(refused.getByRole("table", { name: "The figures the switch was refused on" })).toContainText(
    "dropped by more than 0.05",
  );
  // said to a person, not the API's "send force: true"
  await expect(refused.getByRole("alert")).toContainText("say why");
  await expect(refused.getByRole("alert")).not.toContainText("force: true");
  await expect(refused.getByRole("button", { name: "Switch anyway" })).toBeDisabled();
  await refused.getByLabel("Why switch anyway?").fill("The Python judge is too strict on prices for this set.");
  await atBothSizes(page, "eval-judge-refused");
  await refused.getByRole("button", { name: "Switch anyway" }).click();
  await expect(card.getByTestId("judge-label")).toHaveText("built-in point coverage");
  const history = (await call("GET", `/api/eval/sets/${setId}`)).judgeHistory;
  expect(history[0]).toMatchObject({
    after: { type: "builtin" },
    forced: true,
    reason: "The Python judge is too strict on prices for this set.",
  });
});
