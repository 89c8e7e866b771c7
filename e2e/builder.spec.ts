import fs from "node:fs";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { api, expectNoSeriousA11yViolations, shot, SHOTS, signIn } from "./helpers";

const call = api();

test.use({ viewport: { width: 1600, height: 960 } });

const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);

async function dropFromPalette(page: Page, type: string, x: number, y: number) {
  await page.getByTestId(`palette-${type}`).dragTo(page.getByTestId("canvas"), { targetPosition: { x, y } });
}

async function connect(page: Page, from: Locator, to: Locator) {
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  if (!a || !b) throw new Error("handle not visible");
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 5 });
  await page.mouse.up();
}

async function versionWorkflow(agentId: string, version: number) {
  return (
    await call.expectStatus<{
      workflow: { nodes: { id: string; type: string; config: Record<string, unknown> }[]; edges: unknown[] };
    }>(200, "GET", `/api/builder/agents/${agentId}/versions/${version}`)
  ).workflow;
}

/** A CodeMirror field of the side panel: click into it, replace its text. */
async function replaceField(page: Page, field: string, text: string) {
  const content = page.locator(`[data-testid="inspector"] [data-field="${field}"] .cm-content`).first();
  await content.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(text);
}

test("build an agent from blank: palette, connect, findings, {{ completion, save, reload", async ({ page }) => {
  await signIn(page);
  await page.goto("/builder");
  await shot(page, { path: `${SHOTS}/builder-list-empty.png` });
  await expectNoSeriousA11yViolations(page);

  await page.getByTestId("create-blank").click();
  await expect(page).toHaveURL(/\/builder\/new\?.*draft=/);
  await expect(page.getByTestId("canvas")).toBeVisible();
  await page.getByLabel("Agent name").fill("E2E blank agent");

  await dropFromPalette(page, "start", 135, 200);
  await dropFromPalette(page, "llm", 405, 300);
  await dropFromPalette(page, "end", 665, 200);
  for (const id of ["start", "llm_1", "end"]) await expect(node(page, id)).toBeVisible();

  await connect(
    page,
    node(page, "start").locator(".react-flow__handle.source"),
    node(page, "llm_1").locator(".react-flow__handle.target"),
  );
  await connect(
    page,
    node(page, "llm_1").locator(".react-flow__handle.source"),
    node(page, "end").locator(".react-flow__handle.target"),
  );
  await expect(page.locator(".react-flow__edge")).toHaveCount(2);

  // The llm has no prompt: an error on the node, in the issues panel, and in the header.
  await expect(page.getByTestId("node-badge-llm_1")).toHaveAttribute("aria-label", "1 error");
  const issue = page.getByTestId("issue-row").filter({ hasText: "NODE_CONFIG_MISSING_REQUIRED" });
  await expect(issue).toContainText("llm_1");
  await expect(page.getByTestId("validation-status")).toHaveAttribute("data-state", "invalid");
  await expect(page.getByTestId("validation-status-text")).toHaveText("1 error");
  await expect(page.getByTestId("save-button")).toHaveAttribute("aria-disabled", "true");
  await page.getByTestId("save-button").hover();
  await expect(page.getByRole("tooltip").filter({ hasText: "Fix 1 error before saving" })).toBeVisible();
  await shot(page, { path: `${SHOTS}/builder-canvas-error.png` });

  // Clicking the issue selects the node and focuses the field.
  await issue.click();
  await expect(page.getByTestId("inspector")).toHaveAttribute("data-node-id", "llm_1");
  const prompt = page.locator('[data-testid="inspector"] [data-field="userPrompt"] .cm-content');
  await expect(prompt).toBeFocused();
  await expect(page.getByTestId("field-findings-userPrompt")).toContainText("NODE_CONFIG_MISSING_REQUIRED");

  // {{ completion offers the upstream start output.
  await page.keyboard.type("Answer this: {{");
  const options = page.locator(".cm-tooltip-autocomplete li[role=option] .cm-completionLabel");
  await expect(options).toHaveText(["start.query"]);
  await shot(page, { path: `${SHOTS}/builder-autocomplete.png` });
  // CodeMirror takes no key for a list opened less than 75 ms ago (autocompletion's interactionDelay), so that a
  // person typing on is never caught by a list that just appeared: a person's pause, not a guess at the machine's speed
  await page.waitForTimeout(150);
  await page.keyboard.press("Enter");
  await expect(prompt).toHaveText("Answer this: {{start.query}}");

  await expect(page.getByTestId("validation-status")).toHaveAttribute("data-state", "valid");
  await expect(page.getByTestId("validation-status-text")).toHaveText("Valid");
  await expect(page.getByTestId("node-badge-llm_1")).toHaveCount(0);
  await node(page, "llm_1").click();
  await shot(page, { path: `${SHOTS}/builder-canvas-valid.png` });

  // The first save creates the agent (version 1) and moves to its own URL.
  await page.getByTestId("save-button").click();
  await expect(page).toHaveURL(/\/builder\/[^/?]+\?created=1$/);
  const agentId = new URL(page.url()).pathname.split("/").pop() as string;
  await expect(page.getByTestId("save-state")).toHaveText("v1 · saved");

  await page.reload();
  await expect(page.getByTestId("save-state")).toHaveText("v1 · saved");
  for (const id of ["start", "llm_1", "end"]) await expect(node(page, id)).toBeVisible();
  await expect(page.locator(".react-flow__edge")).toHaveCount(2);
  await expect(node(page, "llm_1")).toContainText("Answer this: {{start.query}}");
  await expect(page.getByTestId("validation-status-text")).toHaveText("Valid");

  const saved = await versionWorkflow(agentId, 1);
  expect(saved.nodes.map((n) => [n.id, n.type])).toEqual([
    ["start", "start"],
    ["llm_1", "llm"],
    ["end", "end"],
  ]);
  expect(saved.nodes[1]?.config).toEqual({ userPrompt: "Answer this: {{start.query}}" });
  expect(saved.edges).toEqual([
    { source: "start", target: "llm_1" },
    { source: "llm_1", target: "end" },
  ]);
  for (const n of saved.nodes) expect(Object.keys(n).sort()).toEqual(["config", "id", "position", "type"]);

  // The history is a dialog: Escape closes it, and so does its close button.
  await page.getByRole("button", { name: "Version history" }).click();
  await expect(page.getByTestId("versions-panel")).toContainText("v1");
  await expect(page.getByRole("dialog", { name: "Version history" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("versions-panel")).toBeHidden();
  await page.getByRole("button", { name: "Version history" }).click();
  await page.getByRole("button", { name: "Close version history" }).click();
  await expect(page.getByTestId("versions-panel")).toBeHidden();

  // Test run of the saved agent (offline model): statuses on the canvas.
  await page.getByRole("tab", { name: "Test run" }).click();
  await page.getByLabel("query").fill("What is Flowbench?");
  await page.getByRole("button", { name: "Run test" }).click();
  await expect(page.getByTestId("run-step-end")).toContainText("Succeeded", { timeout: 30_000 });
  await expect(page.getByTestId("test-run-panel")).toContainText("succeeded");
  await shot(page, { path: `${SHOTS}/builder-test-run.png` });

  await expectNoSeriousA11yViolations(page);
});

test("from the http_call_thin recipe: change the url and save a new version; restore an old one", async ({ page }) => {
  await signIn(page);
  await page.goto("/builder");
  await page.getByTestId("create-http_call_thin").click();
  await expect(node(page, "http_1")).toBeVisible();
  await page.getByLabel("Agent name").fill("E2E http agent");
  await expect(page.getByTestId("validation-status")).toHaveAttribute("data-state", "valid");
  await page.getByTestId("save-button").click();
  await expect(page).toHaveURL(/\/builder\/[^/?]+\?created=1$/);
  const agentId = new URL(page.url()).pathname.split("/").pop() as string;
  await expect(page.getByTestId("save-state")).toHaveText("v1 · saved");

  await node(page, "http_1").click();
  await expect(page.getByTestId("inspector")).toHaveAttribute("data-node-id", "http_1");
  await replaceField(page, "url", "https://example.com/api/meal-scenes");
  await expect(node(page, "http_1")).toContainText("GET https://example.com/api/meal-scenes");
  await expect(page.getByTestId("save-state")).toHaveText("v1 · unsaved changes");
  await expect(page.getByTestId("validation-status")).toHaveAttribute("data-state", "valid");
  await shot(page, { path: `${SHOTS}/builder-http-recipe.png` });
  await page.getByTestId("save-button").click();
  await expect(page.getByTestId("save-state")).toHaveText("v2 · saved");
  const v2 = await versionWorkflow(agentId, 2);
  expect(v2.nodes.find((n) => n.id === "http_1")?.config.url).toBe("https://example.com/api/meal-scenes");

  // Export gives exactly the saved {nodes, edges}, which validates the same way through REST.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Export workflow JSON" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("e2e-http-agent.workflow.json");
  const exported: unknown = JSON.parse(fs.readFileSync(await download.path(), "utf8"));
  expect(exported).toEqual(v2);
  expect(
    (await call.expectStatus<{ valid: boolean }>(200, "POST", "/api/builder/validate", { workflow: exported })).valid,
  ).toBe(true);

  // Version 1 read-only, then restored as version 3.
  await page.getByRole("button", { name: "Version history" }).click();
  await page.getByRole("button", { name: "Open version 1" }).click();
  const preview = page.getByTestId("version-preview");
  await expect(preview).toContainText("Viewing version 1");
  await preview.locator('.react-flow__node[data-id="http_1"]').click();
  await expect(preview).toContainText("/health");
  await shot(page, { path: `${SHOTS}/builder-version-preview.png` });
  await preview.getByRole("button", { name: "Restore as new version" }).click();
  await expect(page.getByTestId("save-state")).toHaveText("v3 · saved");
  expect((await versionWorkflow(agentId, 3)).nodes.find((n) => n.id === "http_1")?.config.url).toBe("/health");

  // The list shows both agents with their latest version.
  await page.goto("/builder");
  await expect(page.getByTestId(`agent-row-${agentId}`)).toContainText("v3");
  await shot(page, { path: `${SHOTS}/builder-list.png` });
});

test("keyboard: add from the palette with Enter, undo/redo, copy/paste, delete; drafts survive a reload", async ({
  page,
}) => {
  await signIn(page);
  await page.goto("/builder/new?from=minimal");
  await expect(node(page, "llm_1")).toBeVisible();
  await expect(page.getByTestId("validation-status")).toHaveAttribute("data-state", "valid");

  await page.getByTestId("palette-code").focus();
  await page.keyboard.press("Enter");
  await expect(node(page, "code_1")).toBeVisible();
  await expect(page.getByTestId("inspector")).toHaveAttribute("data-node-id", "code_1");
  await expect(page.getByTestId("validation-status-text")).toContainText("error");

  await page.getByTestId("canvas").click({ position: { x: 20, y: 20 } });
  await page.keyboard.press("ControlOrMeta+z");
  await expect(node(page, "code_1")).toHaveCount(0);
  await page.keyboard.press("ControlOrMeta+Shift+z");
  await expect(node(page, "code_1")).toBeVisible();

  await node(page, "llm_1").click();
  await page.keyboard.press("ControlOrMeta+c");
  await page.keyboard.press("ControlOrMeta+v");
  await expect(node(page, "llm_2")).toBeVisible();
  await page.keyboard.press("Delete");
  await expect(node(page, "llm_2")).toHaveCount(0);

  // Nodes are focusable; arrow keys move the focused node.
  await node(page, "end").focus();
  await expect(node(page, "end")).toBeFocused();

  // Auto-layout arranges the graph (undoable like any edit).
  const before = await node(page, "code_1").boundingBox();
  await page.getByRole("button", { name: "Auto-layout" }).click();
  await expect
    .poll(async () => JSON.stringify(await node(page, "code_1").boundingBox()))
    .not.toBe(JSON.stringify(before));
  await shot(page, { path: `${SHOTS}/builder-keyboard-auto-layout.png` });

  // Leaving with unsaved edits asks first (in the page's confirmation dialog; Escape stays).
  await page.getByRole("link", { name: "Back to agents" }).click();
  const ask = page.getByRole("alertdialog");
  await expect.poll(async () => (await ask.textContent()) ?? "").toContain("unsaved changes");
  await page.keyboard.press("Escape");
  await expect(ask).toBeHidden();
  await expect(page).toHaveURL(/\/builder\/new/);

  // Unsaved work survives a reload as a local draft.
  await page.waitForTimeout(600);
  await page.reload();
  await expect(node(page, "code_1")).toBeVisible();
  await page.goto("/builder");
  await expect(page.getByText("Unsaved drafts")).toBeVisible();
  await shot(page, { path: `${SHOTS}/builder-unsaved-drafts.png` });
  await expectNoSeriousA11yViolations(page);
});

test("import: invalid JSON is refused with a message; a workflow file opens validated on the canvas", async ({
  page,
}) => {
  await signIn(page);
  await page.goto("/builder");
  await page
    .getByTestId("import-input")
    .setInputFiles({ name: "broken.json", mimeType: "application/json", buffer: Buffer.from("{nodes: oops") });
  await expect(page.getByTestId("import-error")).toContainText("not valid JSON");

  const workflow = {
    nodes: [
      {
        id: "start",
        type: "start",
        config: { outputs: [{ name: "q", type: "string", required: true, default: "" }] },
        position: { x: 0, y: 0 },
      },
      { id: "check", type: "condition", config: { expression: 'start.q != ""' }, position: { x: 300, y: 0 } },
      { id: "yes", type: "end", config: { output: "{{start.q}}" }, position: { x: 600, y: -80 } },
      { id: "no", type: "end", config: { output: "empty" }, position: { x: 600, y: 80 } },
    ],
    edges: [
      { source: "start", target: "check" },
      { source: "check", target: "yes", condition: "true" },
      { source: "check", target: "no" },
    ],
  };
  await page.getByTestId("import-input").setInputFiles({
    name: "branching.workflow.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(workflow)),
  });
  await expect(page).toHaveURL(/\/builder\/new\?draft=/);
  await expect(page.getByLabel("Agent name")).toHaveValue("Branching");
  await expect(node(page, "check")).toBeVisible();
  // The unlabelled edge from the condition node is reported where it belongs.
  await expect(page.getByTestId("issue-row").filter({ hasText: "EDGE_CONDITION_MISSING" })).toBeVisible();
  await expect(page.locator('[aria-label="Edge has an error"]')).toHaveCount(1);
  await shot(page, { path: `${SHOTS}/builder-import-findings.png` });

  // Drawing the false branch from the condition's "false" handle fixes it.
  await page.locator(".react-flow__edge").nth(2).click();
  await page.keyboard.press("Delete");
  await connect(
    page,
    node(page, "check").locator('.react-flow__handle[data-handleid="false"]'),
    node(page, "no").locator(".react-flow__handle.target"),
  );
  await expect(page.getByTestId("validation-status")).toHaveAttribute("data-state", "valid");
  await expectNoSeriousA11yViolations(page);
});

test("confirmations are accessible dialogs: leaving with unsaved changes, restoring over them", async ({ page }) => {
  await signIn(page);
  await page.goto("/builder/new?from=minimal");
  await page.getByLabel("Agent name").fill("E2E dialogs agent");
  await expect(page.getByTestId("validation-status")).toHaveAttribute("data-state", "valid");
  await page.getByTestId("save-button").click();
  await expect(page.getByTestId("save-state")).toHaveText("v1 · saved");
  await page.getByLabel("Agent name").fill("E2E dialogs agent, renamed");
  await expect(page.getByTestId("save-state")).toHaveText("v1 · unsaved changes");

  // Leave: a modal alert dialog named by its title, focus on the answer, trapped inside; Escape stays and gives focus back.
  const back = page.getByRole("link", { name: "Back to agents" });
  await back.click();
  const leave = page.getByRole("alertdialog", { name: "Leave the canvas?" });
  await expect(leave).toBeVisible();
  await expect(leave).toHaveAttribute("aria-modal", "true");
  await expect(leave).toHaveAccessibleDescription(/unsaved changes.*local draft/);
  await expect(leave.getByRole("button", { name: "Leave" })).toBeFocused();
  for (let i = 0; i < 2; i++) {
    await page.keyboard.press("Shift+Tab");
    expect(await page.evaluate(() => !!document.activeElement?.closest("dialog[open]"))).toBe(true);
  }
  // Keys pressed in the dialog stay there: Ctrl+Z does not undo the rename behind it.
  await page.keyboard.press("ControlOrMeta+z");
  await expect(page.getByLabel("Agent name")).toHaveValue("E2E dialogs agent, renamed");
  await expectNoSeriousA11yViolations(page);
  await shot(page, { path: `${SHOTS}/builder-leave-dialog.png` });
  await page.keyboard.press("Escape");
  await expect(leave).toBeHidden();
  await expect(back).toBeFocused();
  await expect(page).toHaveURL(/\/builder\/[^/?]+\?created=1$/);

  // Restore over unsaved changes: the destructive answer is named for what it does; Escape keeps the changes.
  await page.getByRole("button", { name: "Version history" }).click();
  await page.getByRole("button", { name: "Open version 1" }).click();
  const restoreButton = page.getByTestId("version-preview").getByRole("button", { name: "Restore as new version" });
  await restoreButton.click();
  const restore = page.getByRole("alertdialog", { name: "Restore version 1?" });
  await expect(restore).toHaveAccessibleDescription("Restoring replaces your unsaved changes on the canvas.");
  await expect(restore.getByRole("button", { name: "Restore" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(restore).toBeHidden();
  await expect(restoreButton).toBeFocused();
  await expect(page.getByTestId("save-state")).toHaveText("v1 · unsaved changes");
  await restoreButton.click();
  await restore.getByRole("button", { name: "Restore" }).click();
  await expect(page.getByTestId("save-state")).toHaveText("v2 · saved");

  // Leave again after another edit: Enter on the focused answer leaves (client-side, through the same link).
  await page.getByLabel("Agent name").fill("E2E dialogs agent, renamed again");
  await expect(page.getByTestId("save-state")).toHaveText("v2 · unsaved changes");
  await back.click();
  await expect(leave).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/builder$/);
  await expect(page.getByRole("heading", { level: 1, name: "Agents" })).toBeVisible();
});
