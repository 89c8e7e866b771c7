import { expect, test, type Page } from "@playwright/test";
import { api, atBothSizes, type Json, signIn } from "./helpers";

/**
 * Reserved queues (issue 23) in the browser: a person opens an item of the annotation queue and it is reserved for
 * them (the page says until when; the server counts it); the run page, seen by an admin in another context while the
 * item stays open, shows the people table with that reservation. Screenshots at 1440x900 and 1024x768.
 */
const call = api();
const STAMP = Date.now();
const DANA = { email: `dana-${STAMP}@e2e.flowbench.test`, password: "dana-password-1", name: `Dana ${STAMP}` };

test("an opened queue item is reserved for its person, and the run page lists people", async ({ browser }) => {
  test.setTimeout(120_000);
  const recipe = await call("GET", "/api/builder/recipes/minimal");
  const agentId = (
    await call("POST", "/api/builder/agents", { name: `Queues e2e ${STAMP}`, workflow: recipe.workflow })
  ).agent.id;
  const set = await call("POST", "/api/eval/sets", {
    agentId,
    name: "Reserved queue",
    kind: "golden",
    gateThreshold: 1,
    reviewsPerItem: 2,
  });
  const keys = ["q1", "q2", "q3"];
  await call("POST", `/api/eval/sets/${set.id}/versions/1/import`, {
    format: "json",
    content: JSON.stringify(
      keys.map((key) => ({
        key,
        question: `Queue question ${key}: a breakfast dish and its price?`,
        expected_points: ["recommends a breakfast dish", "mentions the price"],
      })),
    ),
  });
  const version = await call("POST", `/api/eval/sets/${set.id}/versions/1/freeze`, {});
  const run = await call("POST", "/api/eval/runs", { setVersionId: version.id, mode: "pasted" });
  await call("POST", `/api/eval/runs/${run.id}/answers`, {
    answers: keys.map((key) => ({ key, answer: "The scallion pancake, 12 yuan." })),
  });
  const items: Json[] = (await call("GET", `/api/eval/runs/${run.id}/items`)).items;
  const first = items.find((i) => i.key === "q1")!.id as string;
  const dana = (await call("POST", "/api/trpc/admin.users.create", { ...DANA, role: "annotator" })).result.data;

  // Dana opens the queue: its first item is reserved for her while it is open
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page: Page = await context.newPage();
  await signIn(page, DANA);
  await page.goto(`/eval?tab=annotation&run=${run.shortId}&item=${first}`);
  await expect(page.getByTestId("reservation")).toContainText("Reserved for you until");
  const danaOf = async () =>
    ((await call("GET", `/api/eval/runs/${run.id}/progress`)).people as Json[]).find((p) => p.userId === dana.id);
  await expect.poll(async () => (await danaOf())?.reserved).toBe(1);
  // to anyone else the item is reserved by one other person (a courtesy: they may still judge it)
  expect((await call("GET", `/api/eval/runs/${run.id}/items/${first}`)).queue).toMatchObject({ reservedByOthers: 1 });
  await atBothSizes(page, "eval-queues-reserved", {
    check: async () => expect(page.getByTestId("reservation")).toBeVisible(),
  });

  // an admin, in another context, sees the people table on the run page
  const admin = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await signIn(admin);
  await admin.goto(`/eval?tab=runs&run=${run.shortId}`);
  const table = admin.getByRole("table", { name: "Reviewers of this run" });
  const row = table.getByRole("row").filter({ hasText: DANA.name });
  await expect(row).toBeVisible();
  await expect(row.getByRole("cell")).toHaveText([DANA.name, "0", "1", "0", "—", "—"]);
  await atBothSizes(admin, "eval-queues-people", { check: async () => expect(row).toBeVisible() });

  // leaving the item (to the run's report, within the app) releases it
  await page.getByRole("link", { name: "Report", exact: true }).click();
  await expect(page).toHaveURL(/tab=runs/);
  await expect.poll(async () => (await danaOf())?.reserved ?? 0).toBe(0);
  await context.close();
  await admin.context().close();
});
