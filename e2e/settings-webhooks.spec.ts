import { expect, test } from "@playwright/test";
import { api, atBothSizes, signIn, SIZES } from "./helpers";

/**
 * Issue 25, signed webhooks in Settings: an admin adds an endpoint (the secret shown once, with a copy button; a URL
 * the SSRF policy refuses is refused with the rule), opens its delivery log, sends a test (the sample app beside the
 * e2e server answers 404 to a POST: the log shows the failed attempt and its response code), disables and enables it,
 * and deletes it. Each state at 1440x900 and 1024x768 (atBothSizes: a screenshot, no serious axe violation).
 */
const call = api();
const HOOK = `http://127.0.0.1:${process.env.E2E_MEALS_PORT}/flowbench-hook-${Date.now().toString(36)}`;

test("webhooks: add (secret once), refuse a metadata URL, test delivery in the log, disable, delete", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.setViewportSize(SIZES[0]);
  await signIn(page);
  await page.goto("/settings");
  const card = page.getByRole("region", { name: "Webhooks" });
  const form = card.getByRole("form", { name: "Add a webhook endpoint" });

  // a URL the SSRF policy refuses: the server's message names the rule
  await form.getByRole("textbox", { name: "Endpoint URL" }).fill("http://169.254.169.254/latest/meta-data");
  await form.getByRole("button", { name: "Add endpoint" }).click();
  await expect(form.getByRole("alert")).toContainText("metadata, link-local or reserved address");

  await form.getByRole("textbox", { name: "Endpoint URL" }).fill(HOOK);
  // webhook.test only: the other specs complete runs and decide gates on this server at the same time, and the
  // defaults (run.completed, gate.decided) would fill this endpoint's log before the empty state below is looked at
  await form.getByRole("checkbox", { name: "run.completed" }).uncheck();
  await form.getByRole("checkbox", { name: "gate.decided" }).uncheck();
  await form.getByRole("checkbox", { name: "webhook.test" }).check();
  await form.getByRole("button", { name: "Add endpoint" }).click();
  const secret = card.getByTestId("new-webhook-secret");
  await expect(secret).toHaveText(/^whsec_[A-Za-z0-9+/]{43}=$/);
  const shown = (await secret.textContent()) ?? "";
  await card.getByRole("button", { name: "Copy" }).click();
  await expect(card.getByRole("button", { name: "Copied" })).toBeVisible();
  await atBothSizes(page, "settings-webhooks-secret", {
    prepare: () => card.getByRole("heading", { name: "Webhooks" }).scrollIntoViewIfNeeded(),
  });
  // never again: not in the list the page reads, nor over REST
  const listed = await call("GET", "/api/admin/webhooks");
  const mine = listed.find((w: { url: string }) => w.url === HOOK);
  expect(JSON.stringify(listed)).not.toContain(shown.slice(6));
  await card.getByRole("button", { name: "Done" }).click();
  await expect(secret).toHaveCount(0);

  // the delivery log: a test delivery, its failed attempt with the 404 the sample app answers
  await page.setViewportSize(SIZES[0]);
  await card.getByRole("button", { name: `Deliveries of ${HOOK}` }).click();
  await expect(card.getByText("Nothing sent yet.")).toBeVisible();
  await card.getByRole("button", { name: "Send a test" }).click();
  const row = card.getByRole("table", { name: "Deliveries" }).getByRole("row").nth(1);
  await expect(row).toContainText("webhook.test");
  await expect(row).toContainText("404", { timeout: 15_000 });
  await expect(row.getByRole("cell").nth(3)).toHaveText("1");
  await atBothSizes(page, "settings-webhooks-log", {
    prepare: () => card.getByRole("table", { name: "Deliveries" }).scrollIntoViewIfNeeded(),
  });

  // disable: the badge says so and a test cannot be sent; enable again
  await page.setViewportSize(SIZES[0]);
  await card.getByRole("button", { name: `Disable ${HOOK}` }).click();
  await expect(card.getByText("disabled", { exact: true })).toBeVisible();
  await expect(card.getByRole("button", { name: "Send a test" })).toBeDisabled();
  expect((await call("GET", `/api/admin/webhooks/${mine.id}`)).enabled).toBe(false);
  await card.getByRole("button", { name: `Enable ${HOOK}` }).click();
  await expect(card.getByRole("button", { name: "Send a test" })).toBeEnabled();

  await card.getByRole("button", { name: `Delete ${HOOK}` }).click();
  await expect(card.getByText(HOOK)).toHaveCount(0);
  expect((await call("GET", "/api/admin/webhooks")).some((w: { url: string }) => w.url === HOOK)).toBe(false);
});
