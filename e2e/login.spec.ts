import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";

/** Serious or critical axe violations, each with the elements it found, so a failure says where to look. */
async function seriousViolations(page: Page): Promise<string[]> {
  const axe = await new AxeBuilder({ page }).analyze();
  return axe.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

const ADMIN = { email: "admin@e2e.flowbench.test", password: "e2e-admin-password" };

test("a protected page sends you to the login page, which signs you in through next-auth", async ({ page }) => {
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fsettings/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await page.screenshot({ path: ".tmp/screenshots/login.png", fullPage: true });

  await page.getByLabel("E-mail").fill(ADMIN.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("#login-error")).toContainText("do not match");

  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
  await expect(page.getByText(ADMIN.email).first()).toBeVisible();
});

test("an admin creates a token in Settings, sees it once, and it works against the API", async ({ page, request }) => {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/builder$/);
  await page.goto("/settings");
  await page.getByLabel("Token name").fill("e2e builder token");
  await page.getByLabel("Token role").selectOption("builder");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("new-token").textContent())?.trim() ?? "";
  expect(token).toMatch(/^fb_/);
  await page.screenshot({ path: ".tmp/screenshots/settings.png", fullPage: true });

  const ok = await request.get("/api/builder/node-types", { headers: { authorization: `Bearer ${token}` } });
  expect(ok.status()).toBe(200);
  const forbidden = await request.post("/api/builder/agents", { headers: { authorization: `Bearer ${token.slice(0, -2)}xx` }, data: {} });
  expect(forbidden.status()).toBe(401);

  await page.getByRole("button", { name: "Revoke token e2e builder token" }).click();
  await expect(page.getByText("revoked").first()).toBeVisible();
  const revoked = await request.get("/api/builder/node-types", { headers: { authorization: `Bearer ${token}` } });
  expect(revoked.status()).toBe(401);

  expect(await seriousViolations(page)).toEqual([]);
});

test("the login page has no serious accessibility violations", async ({ page }) => {
  await page.goto("/login");
  expect(await seriousViolations(page)).toEqual([]);
});
