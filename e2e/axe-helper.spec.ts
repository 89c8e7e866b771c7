import { expect, test } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./helpers";

/**
 * The accessibility check every spec relies on (helpers.ts: axe injected once per document, then `axe.run`) still
 * finds what it must: serious violations on a page, again on a second scan of the same document, and none on a clean
 * page that replaced it (a new document, axe injected again).
 */
test("the axe check finds serious violations, on a second scan too, and passes a clean page", async ({ page }) => {
  const failure = () => expectNoSeriousA11yViolations(page).then(() => "no violation reported", String);
  await page.setContent(
    '<html lang="en"><head><title>bad</title></head><body><main><button></button><p style="color:#eee;background:#fff">faint text</p></main></body></html>',
  );
  const first = await failure();
  expect(first).toContain("button-name @ button");
  expect(first).toContain("color-contrast @ p");
  expect(await failure()).toContain("button-name @ button");
  await page.setContent(
    '<html lang="en"><head><title>fine</title></head><body><main><button>Fine</button></main></body></html>',
  );
  await expectNoSeriousA11yViolations(page);
});
