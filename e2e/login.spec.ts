import { expect, test } from "@playwright/test";
import { ADMIN, api, expectNoSeriousA11yViolations, shot, SHOTS } from "./helpers";

test("a protected page sends you to the login page, which signs you in through next-auth", async ({ page }) => {
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fsettings/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await shot(page, { path: `${SHOTS}/login.png`, fullPage: true });

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

test("an admin creates a token in Settings, sees it once, and it works against the API", async ({ page }) => {
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
  await shot(page, { path: `${SHOTS}/settings.png`, fullPage: true });

  await api(undefined, token).expectStatus(200, "GET", "/api/builder/node-types");
  await api(undefined, `${token.slice(0, -2)}xx`).expectStatus(401, "POST", "/api/builder/agents", {});

  await page.getByRole("button", { name: "Revoke token e2e builder token" }).click();
  await expect(page.getByText("revoked").first()).toBeVisible();
  await api(undefined, token).expectStatus(401, "GET", "/api/builder/node-types");

  await expectNoSeriousA11yViolations(page);
});

test("the login page has no serious accessibility violations", async ({ page }) => {
  await page.goto("/login");
  await expectNoSeriousA11yViolations(page);
  // a narrow window
  await page.setViewportSize({ width: 390, height: 760 });
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  await shot(page, { path: `${SHOTS}/login-narrow.png`, fullPage: true });
});

test("after 5 wrong passwords the login page says how long to wait, then the right password signs in", async ({
  page,
}) => {
  const email = `throttled-${Date.now()}@e2e.flowbench.test`;
  await api().expectStatus(200, "POST", "/api/trpc/admin.users.create", {
    email,
    password: "throttled-password-1",
    role: "viewer",
  });
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(email);
  const error = page.locator("#login-error");
  const submit = async (password: string) => {
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(error).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
    return (await error.textContent()) ?? "";
  };
  for (let i = 0; i < 5; i++) expect(await submit(`wrong-${i}`)).toContain("do not match");
  // then the login throttle: the page names the wait (1 s after the 5th failure, doubling with each further one, so
  // on a slow machine a later attempt is the first to land inside a wait)
  let said = "";
  for (let i = 0; i < 5 && !said.startsWith("Too many"); i++) said = await submit("wrong-again");
  expect(said).toMatch(/^Too many sign-in attempts; try again in \d+ s\.$/);
  await page.waitForTimeout(Number(/in (\d+) s/.exec(said)![1]) * 1000 + 300);
  await page.getByLabel("Password").fill("throttled-password-1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/builder$/);
});
