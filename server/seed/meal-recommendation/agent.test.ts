import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type RunningApp } from "@/sample-app/src/server";
import { loadConfig } from "@/sample-app/src/config";
import { createLogger } from "@/sample-app/src/logger";
import { SEED_SCENES } from "@/sample-app/src/seed-data";
import { createTestDb } from "../../db/test-db";
import type { Db } from "../../db/client";
import { createOfflineProvider } from "../../llm";
import { runWorkflow } from "../../runtime/executor";
import { HTTP_LIMITS, defaultResolver } from "../../runtime/http/client";
import { originRules } from "../../runtime/http/policy";
import { getSandbox } from "../../runtime/sandbox";
import type { RuntimeDeps } from "../../runtime/nodes/context";
import { validateWorkflow, type Workflow } from "../../workflow";
import { suggest } from "../../eval/suggestions/judging";
import agent from "./agent.json";
import golden from "./golden-set.json";

/**
 * The sample agent against the real sample service and the real Python sandbox: every golden question reaches the
 * dishes of the scene it is about (its classification), so a model that answers from the payload can pass, and the
 * payload holds only dishes that exist on that scene's menu.
 */
let app: RunningApp;
let db: Db;
let close: () => Promise<void>;
let dataDir: string;
let deps: RuntimeDeps;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "meal-agent-test-"));
  app = await startApp(
    { ...loadConfig({ DATABASE_URL: `pglite:${dataDir}/db`, LOG_LEVEL: "error" }), port: 0 },
    { logger: createLogger("error") },
  );
  ({ db, close } = await createTestDb());
  deps = {
    llm: createOfflineProvider(),
    http: {
      webhookBaseUrl: app.url,
      policy: { rules: originRules(app.url, undefined), resolver: defaultResolver, ...HTTP_LIMITS },
    },
    sandbox: async () => getSandbox(),
  };
}, 120_000);

afterAll(async () => {
  await app?.close();
  await close?.();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const workflow = agent.workflow as unknown as Workflow;
type Turn = { role: "user" | "assistant"; content: string; preset: boolean };

describe("meal recommendation sample agent", () => {
  it("is a valid workflow with the http_call_thin spine (http_1 -> llm_1 -> end)", () => {
    expect(validateWorkflow(workflow, { webhookBaseUrl: "http://127.0.0.1:8000" })).toMatchObject({
      valid: true,
      errors: [],
    });
    const ids = workflow.nodes.map((n) => n.id);
    expect(ids).toEqual(expect.arrayContaining(["start", "http_1", "llm_1", "end"]));
  });

  it("the golden set has 30 questions, 2 multi-turn scripts, expected points on every question, threshold 26", () => {
    expect(golden.samples).toHaveLength(30);
    expect(golden.samples.filter((s) => "script" in s && s.script).length).toBe(2);
    expect(golden.samples.every((s) => s.expected_points.length > 0)).toBe(true);
    expect(golden.gateThreshold).toBe(26);
  });

  it.each(golden.samples.map((s) => [s.key, s] as const))(
    "%s reaches its scene's dishes at pipeline_live",
    async (_key, sample) => {
      const script = ("script" in sample ? (sample.script as Turn[]) : undefined) ?? [];
      const history = script.filter((t) => t.preset).map((t) => ({ role: t.role, content: t.content }));
      const res = await runWorkflow(
        db,
        { workflow, input: { query: sample.question }, history, mode: "pipeline_live", source: "test_run" },
        deps,
      );
      expect(res.status, JSON.stringify(res.error)).toBe("succeeded");
      expect(res.payload?.scene).toBe(sample.classification);
      const goods = res.payload?.goods_list as Array<{ id: string; name: string }>;
      const menu = SEED_SCENES.find((s) => s.id === sample.classification)!.dishes.map((d) => d.id);
      expect(goods.length).toBeGreaterThan(0);
      expect(goods.every((g) => menu.includes(g.id))).toBe(true);
    },
    // a limit, not a measure: the first question also starts the Python sandbox, past 90 s with the whole suite at load 20
    180_000,
  );

  it("a question with no scene gets a clarifying question and no http call", async () => {
    const res = await runWorkflow(
      db,
      { workflow, input: { query: "What do you recommend?" }, mode: "pipeline_live", source: "test_run" },
      deps,
    );
    expect(res.status).toBe("succeeded");
    expect(res.steps.find((s) => s.nodeId === "http_1")?.status).toBe("skipped");
    expect(res.steps.find((s) => s.nodeId === "end_clarify")?.status).toBe("succeeded");
  });

  it("pipeline tier (dry-run http): the goods list is empty", async () => {
    const res = await runWorkflow(
      db,
      { workflow, input: { query: "breakfast ideas?" }, mode: "pipeline", source: "test_run" },
      deps,
    );
    expect(res.status).toBe("succeeded");
    expect(res.payload?.goods_list || []).toEqual([]); // the dry run has no `dishes`: the template renders empty
    expect(res.steps.find((s) => s.nodeId === "http_1")?.output).toMatchObject({ result: { items: [], dryRun: true } });
  });

  it("machine suggestions catch a model that invents dishes or ignores them (humans still decide)", async () => {
    const sample = golden.samples.find((x) => x.key === "q07")!;
    const res = await runWorkflow(
      db,
      { workflow, input: { query: sample.question }, mode: "pipeline_live", source: "test_run" },
      deps,
    );
    const judgeOn = (answer: string) =>
      suggest(
        {
          question: sample.question,
          expectedPoints: sample.expected_points,
          sampleAssertions: null,
          setAssertions: null,
          tier: "pipeline_live",
          answer,
          payload: res.payload,
          failed: false,
          error: null,
          steps: res.steps,
          hasHttpNodes: true,
        },
        { provider: null },
      ).then((o) => o.suggestion);
    const invented = await judgeOn("For your team:\n1. Lobster Thermidor - 199 yuan\n2. Wagyu Steak Set - 299 yuan");
    expect(invented.flags.map((f) => f.flag)).toContain("fabricated_items");
    expect(invented.verdict).toBe("fail");
    const ignored = await judgeOn("I suggest you look for a nice restaurant near your office.");
    expect(ignored.verdict).not.toBe("pass");
    const faithful = await judgeOn(
      "For your office team I recommend these set meals:\n1. Kung Pao Chicken Set - 38 yuan\n2. Braised Beef Brisket on Rice - 42 yuan\n3. Vegetarian Mapo Tofu Set - 30 yuan",
    );
    expect(faithful.flags.map((f) => f.flag)).not.toContain("fabricated_items");
  });
});
