import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { api, atBothSizes, expectNoSeriousA11yViolations, SHOTS, signIn } from "./helpers";

const call = api();

test.use({ viewport: { width: 1600, height: 960 } });

test("a judge from a judge recipe: saved as kind judge, listed as a judge, test-run with a question, points and an answer", async ({
  page,
}) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  await signIn(page);
  await page.goto("/builder");
  await page.getByTestId("create-judge_python").click();
  await expect(page).toHaveURL(/\/builder\/new\?from=judge_python&draft=/);
  await expect(page.locator('.react-flow__node[data-id="score"]')).toBeVisible();
  await page.getByLabel("Agent name").fill("E2E Python judge");
  // validated as a judge: the recipe follows the judge contract (the first syntax check of its code node starts the
  // Python sandbox, which takes seconds on a loaded machine)
  await expect(page.getByTestId("validation-status")).toHaveAttribute("data-state", "valid", { timeout: 60_000 });
  await page.getByTestId("save-button").click();
  await expect(page).toHaveURL(/\/builder\/[^/?]+\?created=1$/);
  const agentId = new URL(page.url()).pathname.split("/").pop() as string;
  await expect(page.getByTestId("save-state")).toHaveText("v1 · saved");
  const agent = await call.expectStatus<{ kind: string }>(200, "GET", `/api/builder/agents/${agentId}`);
  expect(agent.kind).toBe("judge");
  await atBothSizes(page, "builder-judge-canvas");
  await page.setViewportSize({ width: 1600, height: 960 });

  // a test run takes the judge's inputs: a question, the expected points (JSON) and an answer
  await page.getByRole("tab", { name: "Test run" }).click();
  await page.getByLabel("question").fill("What should I eat for breakfast?");
  await page.getByLabel("expected_points").fill('["recommends a breakfast dish", "mentions the price"]');
  await page
    .getByLabel("answer", { exact: true })
    .fill("I recommend the scallion pancake breakfast dish; the price is 12 yuan.");
  await page.getByRole("button", { name: "Run test" }).click();
  await expect(page.getByTestId("run-step-end")).toContainText("Succeeded", { timeout: 30_000 });
  await expect(page.getByTestId("test-run-panel")).toContainText('"verdict":"pass"');
  // the judge canvas with its test run, as people see it at both sizes (axe clean)
  await atBothSizes(page, "builder-judge-test-run");
  await page.setViewportSize({ width: 1600, height: 960 });

  // the list shows the kind
  await page.goto("/builder");
  await expect(page.getByTestId(`agent-kind-${agentId}`)).toHaveText("judge");
  await expectNoSeriousA11yViolations(page);
  await atBothSizes(page, "builder-judge-list", { axe: false });
});
