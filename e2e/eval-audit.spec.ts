import { expect, test, type Page } from "@playwright/test";
import { api, atBothSizes, type Json, shot, SHOTS, signIn } from "./helpers";

/**
 * The audit of adopted passes in the browser (issue 23), on a run of its own (6 answers the built-in judge passes and
 * one it fails, pasted over REST): the set's settings form for the audit, adoption in the page drawing three audit
 * items (marked on the spot-check list and on the item), a person overturning one and confirming the others, the
 * report's audit line with the Wilson interval and the gate failing with GATE_AUDIT_OVERTURNED, the link to the rest
 * of the adopted passes, and reviewing them to the gate's PASS. Screenshots at 1440x900 and 1024x768, axe on each.
 */
const GOOD = "I recommend the scallion pancake breakfast dish; the price is 12 yuan.";
const BAD = "Hello there.";

test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 1440, height: 900 } });

const call = api();
let agentId: string;
let setId: string;
let run: { id: string; shortId: string };
const key = (i: number) => `p${i}`;
const question = (i: number) => `Breakfast near the office, question ${i}: which dish and what price?`;
const shown = (page: Page) => page.locator("#item-question");

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const recipe = await call("GET", "/api/builder/recipes/minimal");
  agentId = (await call("POST", "/api/builder/agents", { name: `Audit e2e ${Date.now()}`, workflow: recipe.workflow }))
    .agent.id;
  // the default audit: 10 % of each adoption's passes, at least 3; any overturn fails the gate
  const set = await call("POST", "/api/eval/sets", { agentId, name: "Audited set", kind: "golden", gateThreshold: 5 });
  setId = set.id;
  const samples = Array.from({ length: 7 }, (_, k) => ({
    key: key(k + 1),
    question: question(k + 1),
    expected_points: ["recommends a breakfast dish", "mentions the price"],
  }));
  await call("POST", `/api/eval/sets/${set.id}/versions/1/import`, {
    format: "json",
    content: JSON.stringify(samples),
  });
  await call("POST", `/api/eval/sets/${set.id}/versions/1/freeze`, {});
  const detail = await call("GET", `/api/eval/sets/${set.id}`);
  run = await call("POST", "/api/eval/runs", { setVersionId: detail.versions[0].id, mode: "pasted" });
  await call("POST", `/api/eval/runs/${run.id}/answers`, {
    answers: samples.map((s, k) => ({ key: s.key, answer: k === 6 ? BAD : GOOD })),
  });
});

test("the set's settings form edits the audit: a change applies to runs created afterwards", async ({ page }) => {
  await signIn(page);
  await page.goto(`/eval?tab=sets&agent=${agentId}&set=${setId}`);
  await page.getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: "Edit the set" });
  const rate = edit.getByLabel("Audit rate (%)");
  const overturns = edit.getByLabel("Overturns allowed");
  await expect(rate).toHaveValue("10");
  await expect(overturns).toHaveValue("0");
  // a rate above 100 % cannot be saved, and the form says why
  await rate.fill("150");
  await expect(edit.getByText("The audit rate is a percentage from 0 to 100.")).toBeVisible();
  await expect(edit.getByRole("button", { name: "Save" })).toBeDisabled();
  await rate.fill("20");
  await overturns.fill("1");
  await atBothSizes(page, "audit-set-settings");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toBeHidden();
  expect(await call("GET", `/api/eval/sets/${setId}`)).toMatchObject({ auditRate: 0.2, maxAuditOverturn: 1 });
  // the run keeps what the set had when it was created
  expect(await call("GET", `/api/eval/runs/${run.id}`)).toMatchObject({ auditRate: 0.1, maxAuditOverturn: 0 });
});

test("adopt, the audit items on the spot-check list, one overturned: the report and the gate say so; the rest reviewed: PASS", async ({
  page,
}) => {
  // about 60 s on a quiet machine; 3 minutes were not enough with the shared machine at load 28
  test.setTimeout(300_000);
  await signIn(page);
  await page.goto(`/eval?tab=annotation&run=${run.shortId}`);
  await expect(shown(page)).toHaveText(question(1));
  await page.getByRole("button", { name: "Adopt machine suggestions" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Adopt all machine suggestions?" });
  await confirm.getByRole("button", { name: "Adopt 7" }).click();
  await expect(page).toHaveURL(/spot=1/);

  // three of the six adopted passes were drawn (at least 3); they are on the spot-check list with the fail
  const { audits } = (await call("GET", `/api/eval/runs/${run.id}/audits`)) as Json;
  const sample: string[] = audits[0].sample;
  expect(sample).toHaveLength(3);
  const queue = page.getByRole("list", { name: "Queue" });
  await expect(queue.getByRole("listitem")).toHaveCount(4);
  for (const id of sample) await expect(queue.locator(`[data-item="${id}"]`)).toContainText("audit");
  await expect(page.getByText(/spot-checks? left/)).toContainText("4 spot-checks left");

  // open the first audit item: its badge and note; a person overturns it (F, the basis, the attribution, Ctrl+Enter)
  await queue.locator(`[data-item="${sample[0]}"] a`).click();
  await expect(page.getByText("audit item", { exact: true })).toBeVisible();
  await expect(page.getByRole("note").filter({ hasText: "drawn at random for a person to check" })).toBeVisible();
  await atBothSizes(page, "audit-spot-check-list");
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.locator("body").press("f");
  const fail = page.getByRole("dialog", { name: "Fail: what is wrong?" });
  await expect(fail.getByRole("textbox", { name: "Basis" })).toBeFocused();
  await page.keyboard.type("The price is made up: the menu says 15 yuan");
  // an adopted pass has no attribution to keep: a person names where it broke
  await fail.getByRole("radio", { name: /generation/ }).check();
  await fail.getByRole("textbox", { name: "Basis" }).press("Control+Enter");
  await expect(fail).toBeHidden();
  // the other two are confirmed, the machine's fail typed as a person's
  for (const id of sample.slice(1)) {
    await queue.locator(`[data-item="${id}"] a`).click();
    await expect(page.getByRole("button", { name: /^Pass/ })).toBeEnabled();
    await page.locator("body").press("p");
    await expect
      .poll(async () => (await call("GET", `/api/eval/runs/${run.id}/items/${id}`)).verdict?.source)
      .toBe("human");
  }
  const bad = (await call("GET", `/api/eval/runs/${run.id}/items?spotCheck=true`)).items.find(
    (i: Json) => i.key === key(7),
  );
  await call("PUT", `/api/eval/runs/${run.id}/items/${bad.id}/verdict`, {
    verdict: "fail",
    basis: "greets only",
    attribution: "generation",
  });

  // the report: the audit line with the estimate and its interval, the gate FAIL with the audit's reason
  await page.goto(`/eval?tab=runs&run=${run.shortId}`);
  const audit = page.getByRole("region", { name: "Audit of adopted passes" });
  await expect(audit).toHaveAttribute("data-audit", "overturned");
  await expect(audit).toContainText("audit of adopted passes: 3 of 3 checked, 1 overturned");
  // statsmodels proportion_confint(1, 3, method="wilson") = (0.0615, 0.7923)
  await expect(audit).toContainText(
    "Estimated false-pass rate of the adopted passes: 33.3% (95 % interval 6–79%, n 3)",
  );
  const banner = page.getByRole("region", { name: "Release gate" });
  await expect(banner).toHaveAttribute("data-gate", "fail");
  await expect(banner).toContainText("the audit overturned 1 of 3 checked adopted passes (the set allows 0)");
  await atBothSizes(page, "audit-report-overturned");
  await page.setViewportSize({ width: 1440, height: 900 });

  // the rest of the adopted passes, exactly: the link opens the queue's "Adopted passes" list
  await audit.getByRole("link", { name: "Review the rest of the adopted passes (3)" }).click();
  await expect(page).toHaveURL(/source=adopted/);
  await expect(page.getByRole("button", { name: "Adopted passes" })).toHaveAttribute("aria-pressed", "true");
  await expect(queue.getByRole("listitem")).toHaveCount(3);
  for (const id of sample) await expect(queue.locator(`[data-item="${id}"]`)).toHaveCount(0);
  await atBothSizes(page, "audit-rest-of-adopted");
  await page.setViewportSize({ width: 1440, height: 900 });
  // P on each: the view moves on by itself to the next adopted pass
  for (let i = 0; i < 3; i++) {
    await expect(page.getByRole("button", { name: /^Pass/ })).toBeEnabled();
    const before = await shown(page).textContent();
    await page.locator("body").press("p");
    if (i < 2) await expect(shown(page)).not.toHaveText(before!);
  }
  await expect.poll(async () => (await call("GET", `/api/eval/runs/${run.id}/gate`)).result.status).toBe("pass");
  await page.goto(`/eval?tab=runs&run=${run.shortId}`);
  await expect(banner).toHaveAttribute("data-gate", "pass");
  await expect(audit).toContainText("Every adopted pass has been reviewed by a person");
  // no longer red: the overturn no longer holds the gate
  await expect(audit).toHaveAttribute("data-audit", "reviewed");
  await shot(page, { path: `${SHOTS}/audit-report-reviewed-1440x900.png`, fullPage: true });
});
