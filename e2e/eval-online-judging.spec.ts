import { expect, test } from "@playwright/test";
import { api, atBothSizes, signIn } from "./helpers";

/**
 * Issue 25, sampled online judging and alerts in the browser: a manager sets the agent's judging rule (every answer,
 * a judge agent in the Python sandbox that fails questions saying "bad") and an alert rule (one judged fail within an
 * hour) on the online loop tab; a user's chat is judged fail in the background; the lead shows "Judge: fail" with the
 * rationale under the Signal filter, the red banner says what fired, and Acknowledge takes it away. Chats and the judge
 * agent (builder work) go over REST.
 */
const call = api();

/** start -> llm -> end (the e2e server answers with the offline model). */
const minimalAgentWorkflow = () => ({
  nodes: [
    {
      id: "start",
      type: "start",
      config: { outputs: [{ name: "query", type: "string", required: true, default: "" }] },
      position: { x: 0, y: 0 },
    },
    { id: "llm_1", type: "llm", config: { userPrompt: "{{start.query}}" }, position: { x: 250, y: 0 } },
    { id: "end", type: "end", config: { output: "{{llm_1.result}}" }, position: { x: 500, y: 0 } },
  ],
  edges: [
    { source: "start", target: "llm_1" },
    { source: "llm_1", target: "end" },
  ],
});

const JUDGE_CODE = `q = str(inputs.get("question") or "")
if "bad" in q:
    result = {"verdict": "fail", "rationale": "the answer names no dish for lunch"}
else:
    result = {"verdict": "pass", "rationale": "fine"}
`;

test("online judging: a rule and an alert set on the tab, a judged fail becomes a lead, the banner until acknowledged", async ({
  page,
}) => {
  test.setTimeout(300_000); // a judge agent in the sandbox and two sizes with axe: slow on a loaded 2-core machine
  const stamp = Date.now().toString(36);
  const recipe = await call("GET", "/api/builder/recipes/judge_python");
  const code = recipe.workflow.nodes.find((n: { type: string }) => n.type === "code");
  code.config = { ...code.config, code: JUDGE_CODE };
  const judgeName = `Lunch judge ${stamp}`;
  await call("POST", "/api/builder/agents", { name: judgeName, kind: "judge", workflow: recipe.workflow });
  const agentId: string = (
    await call("POST", "/api/builder/agents", { name: `Judged agent ${stamp}`, workflow: minimalAgentWorkflow() })
  ).agent.id;
  await call("POST", `/api/builder/agents/${agentId}/publish`, { version: 1 });

  await signIn(page);
  await page.goto(`/eval?agent=${agentId}`);
  const judging = page.getByRole("form", { name: "Online judging rule" });
  await expect(judging).toBeVisible();
  await judging.getByLabel("Share judged (%)").fill("100");
  await judging.getByLabel("Judge", { exact: true }).selectOption({ label: `${judgeName} v1` });
  await judging.getByLabel("Shortest user message").fill("5");
  await judging.getByRole("button", { name: "Save judging" }).click();
  await expect(page.getByText("Online judging saved")).toBeVisible();

  const rules = page.getByRole("form", { name: "New alert rule" });
  await rules.getByLabel("Name").fill("A judged fail");
  await rules.getByLabel("Fires when").selectOption("count");
  await rules.getByLabel("At least K leads").fill("1");
  await rules.getByLabel("Leads counted").selectOption({ label: "Judge: fail" });
  await rules.getByRole("button", { name: "Add alert rule" }).click();
  await expect(page.getByRole("list", { name: "Alert rules" })).toContainText(
    'At least 1 lead "Judge: fail" within 60 min',
  );
  const saved = await call("GET", `/api/eval/online/judging/${agentId}`);
  expect(saved.rule).toMatchObject({
    samplingRate: 1,
    judge: { type: "agent", version: 1 },
    filters: { minLength: 5 },
  });

  // a user's chat, judged in the background
  const bad = await call("POST", `/api/agents/${agentId}/chat`, { message: "a bad question about lunch" });
  await expect
    .poll(async () => (await call("GET", `/api/eval/online/alerts?agentId=${agentId}&open=true`)).items.length, {
      timeout: 90_000,
    })
    .toBe(1);
  await page.reload();
  const banner = page.getByRole("alert", { name: "Alert: A judged fail" });
  await expect(banner).toContainText("1 lead (Judge: fail) in the last 60 min (at least 1)");
  await banner.getByRole("button", { name: "Show the leads" }).click();
  await expect(page).toHaveURL(/signal=judge_fail/);
  const lead = page.getByRole("list", { name: "Leads" }).getByRole("listitem", { name: /a bad question about lunch/ });
  await expect(lead).toContainText("Judge: fail");
  await expect(lead).toContainText(`${judgeName} v1 says fail: the answer names no dish for lunch`);
  expect(
    (await call("GET", `/api/eval/online/leads?agentId=${agentId}&signal=judge_fail`)).items.map(
      (l: { traceId: string }) => l.traceId,
    ),
  ).toEqual([bad.traceId]);

  // the whole tab (banner, judging and alert cards, the judged lead) at both sizes, with axe
  await atBothSizes(page, "online-judging-banner", {
    prepare: async () => {
      await page.evaluate(() => window.scrollTo(0, 0));
    },
    check: async () => {
      await expect(banner).toBeInViewport();
    },
  });
  await banner.getByRole("button", { name: "Acknowledge" }).click();
  await expect(banner).toBeHidden();
  expect((await call("GET", `/api/eval/online/alerts?agentId=${agentId}&open=true`)).items).toEqual([]);
});
