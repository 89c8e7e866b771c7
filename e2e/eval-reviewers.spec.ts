import { expect, test, type Browser, type Page } from "@playwright/test";
import { api, expectNoSeriousA11yViolations, type Json, signIn } from "./helpers";

/**
 * Several people, one verdict (issue 23) in the browser: a set with two reviewers per item; alice and bob review the
 * same run in two browser contexts of their own (blind: bob does not see alice's verdict before giving his, the queue
 * says "your review 2 of 2"), they agree on one question and disagree on the other, and an admin in a third context
 * finds the dispute under the Disputed filter, sees both verdicts with their bases side by side and decides it.
 */
test.use({ viewport: { width: 1440, height: 960 } });

const call = api();
const STAMP = Date.now();
const ALICE = { email: `alice-${STAMP}@e2e.flowbench.test`, password: "alice-password-1" };
const BOB = { email: `bob-${STAMP}@e2e.flowbench.test`, password: "bob-password-1" };
const ADMIN_ADJUDICATOR = { email: "admin@e2e.flowbench.test", password: "e2e-admin-password" };

async function as(browser: Browser, who: { email: string; password: string }): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 960 } });
  const page = await context.newPage();
  await signIn(page, who);
  return page;
}

test("two people review one run in two contexts, blind; a third adjudicates their dispute", async ({ browser }) => {
  test.setTimeout(240_000);
  const recipe = await call("GET", "/api/builder/recipes/minimal");
  const agentId = (
    await call("POST", "/api/builder/agents", { name: `Reviewers e2e ${STAMP}`, workflow: recipe.workflow })
  ).agent.id;
  const set = await call("POST", "/api/eval/sets", {
    agentId,
    name: "Two reviewers",
    kind: "golden",
    gateThreshold: 1,
    reviewsPerItem: 2,
  });
  await call("POST", `/api/eval/sets/${set.id}/versions/1/import`, {
    format: "json",
    content: JSON.stringify(
      ["e1", "e2"].map((key) => ({
        key,
        question: `Reviewers question ${key}: a breakfast dish and its price?`,
        expected_points: ["recommends a breakfast dish", "mentions the price"],
      })),
    ),
  });
  const version = await call("POST", `/api/eval/sets/${set.id}/versions/1/freeze`, {});
  const run = await call("POST", "/api/eval/runs", { setVersionId: version.id, mode: "pasted" });
  await call("POST", `/api/eval/runs/${run.id}/answers`, {
    answers: ["e1", "e2"].map((key) => ({ key, answer: "The scallion pancake, 12 yuan." })),
  });
  const items: Json[] = (await call("GET", `/api/eval/runs/${run.id}/items`)).items;
  const id = Object.fromEntries(items.map((i) => [i.key, i.id])) as Record<string, string>;
  for (const who of [ALICE, BOB])
    await call.expectStatus(200, "POST", "/api/trpc/admin.users.create", { ...who, role: "annotator" });
  const open = (page: Page, key: string, filters = "") =>
    page.goto(`/eval?tab=annotation&run=${run.shortId}&item=${id[key]}${filters}`);
  const reviews = (page: Page) => page.getByRole("region", { name: "Reviews" });
  const pass = (page: Page) => page.getByRole("button", { name: /^Pass/ }).click();

  // alice: her review is the first of two; the panel says the others' verdicts are hidden until she gives hers
  const alice = await as(browser, ALICE);
  await open(alice, "e1");
  await expect(reviews(alice)).toContainText("your review 1 of 2");
  await expect(reviews(alice)).toContainText("Blind review");
  await pass(alice);
  await expect.poll(async () => (await call("GET", `/api/eval/runs/${run.id}/items/${id.e1}`)).reviews.given).toBe(1);
  await open(alice, "e2");
  await pass(alice);
  await expect.poll(async () => (await call("GET", `/api/eval/runs/${run.id}/items/${id.e2}`)).reviews.given).toBe(1);

  // bob, in his own context: "your review 2 of 2", alice's verdict not shown until he gives his
  const bob = await as(browser, BOB);
  await open(bob, "e1");
  await expect(bob.getByRole("list", { name: "Queue" })).toContainText("your review 2 of 2");
  await expect(reviews(bob)).toContainText("your review 2 of 2");
  await expect(reviews(bob)).toContainText("Blind review");
  await expect(reviews(bob).getByText("(no basis)")).toHaveCount(0);
  await pass(bob);
  // agreed: the verdict is final
  await expect
    .poll(async () => (await call("GET", `/api/eval/runs/${run.id}/items/${id.e1}`)).verdict?.verdict)
    .toBe("pass");
  await open(bob, "e2");
  await expect(bob.locator("#item-question")).toContainText("e2");
  await bob.getByRole("button", { name: /^Fail/ }).click();
  const fail = bob.getByRole("dialog", { name: "Fail: what is wrong?" });
  await fail.getByRole("textbox", { name: "Basis" }).fill("Bob: the price is not for this dish");
  await fail.getByRole("radio", { name: /generation/ }).check();
  await bob.keyboard.press("Control+Enter");
  await expect(fail).toBeHidden();
  await expect.poll(async () => (await call("GET", `/api/eval/runs/${run.id}/items/${id.e2}`)).status).toBe("disputed");
  // after his verdict bob sees both
  await open(bob, "e2");
  await expect(reviews(bob).getByTestId("reviews-side-by-side")).toContainText("Bob: the price is not for this dish");

  // the adjudicator: the Disputed filter lists e2 only; both verdicts with their bases side by side; the decision
  const admin = await as(browser, ADMIN_ADJUDICATOR);
  await admin.goto(`/eval?tab=annotation&run=${run.shortId}&status=disputed`);
  const queue = admin.getByRole("list", { name: "Queue" });
  await expect(queue.getByRole("listitem")).toHaveCount(1);
  await expect(queue).toContainText("e2");
  await expect(queue).toContainText("disputed");
  await open(admin, "e2", "&status=disputed");
  const side = reviews(admin).getByTestId("reviews-side-by-side");
  await expect(side.getByLabel(/^Review by /)).toHaveCount(2);
  await expect(side).toContainText("(no basis)");
  await expect(side).toContainText("Bob: the price is not for this dish");
  await expectNoSeriousA11yViolations(admin);
  const decide = admin.getByRole("form", { name: "Adjudicate" });
  await decide.getByLabel("Decision", { exact: true }).selectOption("pass");
  await decide.getByLabel("Basis of the decision").fill("Admin: the dish and its price are both there");
  await decide.getByRole("button", { name: "Decide" }).click();
  await expect
    .poll(async () => (await call("GET", `/api/eval/runs/${run.id}/items/${id.e2}`)).reviews.state)
    .toBe("adjudicated");
  const decided = await call("GET", `/api/eval/runs/${run.id}/items/${id.e2}`);
  expect(decided.verdict).toMatchObject({ verdict: "pass", basis: "Admin: the dish and its price are both there" });
  await expect(reviews(admin)).toContainText("adjudicated");
  const gate = await call("GET", `/api/eval/runs/${run.id}/gate`);
  expect(gate.result.disputed).toEqual([]);
  for (const page of [alice, bob, admin]) await page.context().close();
});
