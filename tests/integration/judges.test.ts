import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase, startServer, type StartedServer } from "../../scripts/lib/app-server";
import { rubricJudgeReply } from "../../server/eval/testing";
import { startFakeLlmServer, type FakeLlmServer } from "../../server/llm/testing";
import { api, minimalWorkflow, ok, servers, trpc } from "./client";
import type { ServerInfo } from "./global-setup";

/**
 * Judges are agents (issue 22) over real HTTP, on both databases: a judge is an agent of kind `judge` whose workflow
 * follows the judge contract; the judge recipes validate and test-run as they are.
 */

async function recipe(server: ServerInfo, name: string) {
  return ok(api(server, "GET", `/api/builder/recipes/${name}`));
}

/** A judge agent made from a recipe (version 1). */
export async function judgeFromRecipe(server: ServerInfo, name: "judge_python" | "judge_llm_rubric", label: string) {
  const r = await recipe(server, name);
  const created = await ok(
    api(server, "POST", "/api/builder/agents", {
      body: { name: `${label} ${server.name}`, kind: "judge", workflow: r.workflow },
    }),
    201,
  );
  return created.agent as { id: string; kind: string; latestVersion: number };
}

/** The judge answer a judge's test run gave (its end output, JSON). */
async function judgeTestRun(server: ServerInfo, agentId: string, input: Record<string, unknown>) {
  const trace = await ok(api(server, "POST", `/api/agents/${agentId}/test-run`, { body: { input } }));
  expect(trace.status, JSON.stringify(trace.error)).toBe("succeeded");
  return JSON.parse(trace.answer as string) as { verdict: string; rationale?: string; points?: unknown[] };
}

const POINTS = ["recommends a breakfast dish", "mentions the price"];
const GOOD = "I recommend the scallion pancake breakfast dish; the price is 12 yuan.";
const BAD = "Sorry, I cannot help with that.";

/** A frozen set of the agent with `n` questions (two expected points each). */
async function frozenSet(server: ServerInfo, agentId: string, n: number, name: string) {
  const set = await ok(
    api(server, "POST", "/api/eval/sets", { body: { agentId, name, kind: "golden", gateThreshold: 1 } }),
    201,
  );
  const samples = Array.from({ length: n }, (_, i) => ({
    key: `q${i + 1}`,
    question: `What should I eat for breakfast (${i + 1})?`,
    expected_points: POINTS,
    classification: i % 2 ? "price" : "breakfast",
  }));
  await ok(
    api(server, "POST", `/api/eval/sets/${set.id}/versions/1/import`, {
      body: { format: "json", content: JSON.stringify(samples) },
    }),
  );
  const v = await ok(api(server, "POST", `/api/eval/sets/${set.id}/versions/1/freeze`));
  return { setId: set.id as string, versionId: v.id as string };
}

type Item = {
  id: string;
  key: string;
  status: string;
  judgeTokens: number;
  suggestion: {
    verdict: string;
    judge: string;
    judgedBy?: { key: string; type: string; label: string };
    judgeError?: string;
  } | null;
  otherSuggestions: Record<string, { verdict: string; judgedBy?: { key: string }; judgeError?: string }>;
};

async function items(server: ServerInfo, runId: string): Promise<Item[]> {
  return (await ok(api(server, "GET", `/api/eval/runs/${runId}/items?limit=200`))).items;
}

async function waitForItems(server: ServerInfo, runId: string, what: string, done: (items: Item[]) => boolean) {
  const until = Date.now() + 90_000;
  for (;;) {
    const all = await items(server, runId);
    if (done(all)) return all;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(all).slice(0, 800)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

for (const server of servers()) {
  describe(`judges are agents on ${server.name}`, () => {
    it("the judge recipes are listed with their kind and validate as judges; agents' workflows do not", async () => {
      const list = await ok(api(server, "GET", "/api/builder/recipes"));
      const kinds = Object.fromEntries(list.items.map((r: { name: string; kind: string }) => [r.name, r.kind]));
      expect(kinds).toMatchObject({
        minimal: "agent",
        http_call_thin: "agent",
        judge_llm_rubric: "judge",
        judge_python: "judge",
      });
      const types = await ok(api(server, "GET", "/api/builder/node-types"));
      expect(types.recipes).toEqual(expect.arrayContaining(["judge_llm_rubric", "judge_python"]));
      expect(Object.keys(types.findingCodes)).toEqual(
        expect.arrayContaining(["JUDGE_INPUT_MISSING", "JUDGE_OUTPUT_INVALID", "AGENT_KIND_UNKNOWN"]),
      );
      for (const name of ["judge_llm_rubric", "judge_python"]) {
        const { workflow } = await recipe(server, name);
        expect(
          await ok(api(server, "POST", "/api/builder/validate", { body: { workflow, kind: "judge" } })),
        ).toMatchObject({ valid: true, errors: [] });
        // tRPC's validate takes the same { workflow, kind }
        expect(await trpc(server).builder.validate.mutate({ workflow, kind: "judge" })).toMatchObject({ valid: true });
      }
      const asJudge = await api(server, "POST", "/api/builder/validate", {
        body: { workflow: minimalWorkflow(), kind: "judge" },
      });
      expect(asJudge.status).toBe(400);
      expect(asJudge.body.error.code).toBe("WORKFLOW_INVALID");
      expect(asJudge.body.errors.map((f: { code: string }) => f.code)).toEqual([
        "JUDGE_INPUT_MISSING",
        "JUDGE_INPUT_MISSING",
        "JUDGE_INPUT_MISSING",
      ]);
      const viaTrpc = await trpc(server).builder.validate.mutate({ workflow: minimalWorkflow(), kind: "judge" });
      expect(viaTrpc.valid).toBe(false);
      expect(viaTrpc.errors[0]).toMatchObject({
        code: "JUDGE_INPUT_MISSING",
        path: "/workflow/nodes/0/config/outputs",
      });
      const unknownKind = await api(server, "POST", "/api/builder/validate", {
        body: { workflow: minimalWorkflow(), kind: "grader" },
      });
      expect(unknownKind.status).toBe(400);
      expect(unknownKind.body.errors).toEqual([expect.objectContaining({ code: "AGENT_KIND_UNKNOWN", path: "/kind" })]);
      // without a kind (or kind agent) the minimal workflow is a valid agent, as before
      expect(
        (await api(server, "POST", "/api/builder/validate", { body: { workflow: minimalWorkflow(), kind: "agent" } }))
          .status,
      ).toBe(200);
    });

    it("a judge is created with kind judge and reports it everywhere; its versions keep to the contract", async () => {
      const judge = await judgeFromRecipe(server, "judge_python", "Python judge");
      expect(judge.kind).toBe("judge");
      const agent = await ok(
        api(server, "POST", "/api/builder/agents", {
          body: { name: `plain agent ${server.name}`, workflow: minimalWorkflow() },
        }),
        201,
      );
      expect(agent.agent.kind).toBe("agent");
      expect((await ok(api(server, "GET", `/api/builder/agents/${judge.id}`))).kind).toBe("judge");
      const judges = await ok(api(server, "GET", "/api/builder/agents?kind=judge&limit=200"));
      expect(judges.items.every((a: { kind: string }) => a.kind === "judge")).toBe(true);
      expect(judges.items.map((a: { id: string }) => a.id)).toContain(judge.id);
      expect(judges.items.map((a: { id: string }) => a.id)).not.toContain(agent.agent.id);
      const byEvaluation = await ok(api(server, "GET", "/api/builder/agents?kind=agent&order=evaluation&limit=200"));
      expect(byEvaluation.items.map((a: { id: string }) => a.id)).toContain(agent.agent.id);
      expect(byEvaluation.items.map((a: { id: string }) => a.id)).not.toContain(judge.id);
      const listed = await trpc(server).builder.agents.list.query({ kind: "judge", limit: 200 });
      expect(listed.items.find((a) => a.id === judge.id)?.kind).toBe("judge");

      // a judge's workflow that breaks the contract is refused, at creation and as a new version
      const refused = await api(server, "POST", "/api/builder/agents", {
        body: { name: "not a judge", kind: "judge", workflow: minimalWorkflow() },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe("WORKFLOW_INVALID");
      expect(refused.body.error.details[0]).toMatchObject({ code: "JUDGE_INPUT_MISSING" });
      const badVersion = await api(server, "POST", `/api/builder/agents/${judge.id}/versions`, {
        body: { workflow: minimalWorkflow() },
      });
      expect(badVersion.status).toBe(400);
      expect(badVersion.body.error.code).toBe("WORKFLOW_INVALID");
      // the same workflow is a fine version of an agent
      await ok(
        api(server, "POST", `/api/builder/agents/${agent.agent.id}/versions`, {
          body: { workflow: minimalWorkflow() },
        }),
        201,
      );
      const badKind = await api(server, "POST", "/api/builder/agents", {
        body: { name: "x", kind: "grader", workflow: minimalWorkflow() },
      });
      expect(badKind.status).toBe(400);
      expect(badKind.body.error.code).toBe("REQUEST_INVALID");
    });

    it("both judge recipes test-run as they are: the Python scorer judges, the rubric judge's unreadable reply is unknown", async () => {
      const py = await judgeFromRecipe(server, "judge_python", "Python judge run");
      const points = ["recommends a breakfast dish", "mentions the price"];
      const pass = await judgeTestRun(server, py.id, {
        question: "What should I eat for breakfast?",
        expected_points: points,
        answer: "I recommend the scallion pancake breakfast dish; the price is 12 yuan.",
      });
      expect(pass).toEqual({
        verdict: "pass",
        rationale: "2/2 points covered",
        points: points.map((point) => ({ point, status: "covered" })),
      });
      const fail = await judgeTestRun(server, py.id, {
        question: "What should I eat for breakfast?",
        expected_points: points,
        answer: "Sorry, I cannot help with that.",
      });
      expect(fail.verdict).toBe("fail");
      // a draft is held to the contract too
      const draft = await api(server, "POST", `/api/agents/${py.id}/test-run`, {
        body: { workflow: minimalWorkflow(), input: { query: "x" } },
      });
      expect(draft.status).toBe(400);
      expect(draft.body.error.code).toBe("WORKFLOW_INVALID");

      // the rubric judge on these servers' offline provider: its reply is not JSON, so the code node says unknown
      const rubric = await judgeFromRecipe(server, "judge_llm_rubric", "Rubric judge run");
      const unknown = await judgeTestRun(server, rubric.id, {
        question: "What should I eat for breakfast?",
        expected_points: points,
        answer: "Scallion pancake, 12 yuan.",
      });
      expect(unknown).toMatchObject({ verdict: "unknown", rationale: expect.stringContaining("could not be read") });
    });

    it("a set chooses its judge (pinned, checked); a run takes it at creation and keeps it; suggestions and the report name it", async () => {
      const agent = await ok(
        api(server, "POST", "/api/builder/agents", {
          body: { name: `judged agent ${server.name}`, workflow: minimalWorkflow() },
        }),
        201,
      );
      const agentId = agent.agent.id as string;
      const py = await judgeFromRecipe(server, "judge_python", "Set judge");
      const { setId, versionId } = await frozenSet(server, agentId, 3, "Judged set");
      expect((await ok(api(server, "GET", `/api/eval/sets/${setId}`))).judge).toBeNull();

      // bad judges: 4xx with stable codes, nothing changes
      const patch = (judge: unknown) => api(server, "PATCH", `/api/eval/sets/${setId}`, { body: { judge } });
      for (const judge of [
        { type: "agent", agentId: py.id, version: "latest" },
        { type: "agent", agentId: py.id },
        { type: "agent", version: 1 },
        { type: "rubric" },
      ]) {
        const r = await patch(judge);
        expect(r.status, JSON.stringify(judge)).toBe(400);
        expect(r.body.error.code).toBe("REQUEST_INVALID");
      }
      const notAJudge = await patch({ type: "agent", agentId, version: 1 });
      expect(notAJudge.status).toBe(400);
      expect(notAJudge.body.error.code).toBe("JUDGE_NOT_A_JUDGE");
      for (const judge of [
        { type: "agent", agentId: py.id, version: 9 },
        { type: "agent", agentId: "no-such-agent", version: 1 },
      ]) {
        const r = await patch(judge);
        expect(r.status).toBe(404);
        expect(r.body.error.code).toBe("JUDGE_VERSION_NOT_FOUND");
      }
      expect((await patch({ type: "builtin" })).status).toBe(200);
      expect((await api(server, "PATCH", "/api/eval/sets/nope", { body: { judge: { type: "llm" } } })).status).toBe(
        404,
      );
      const chosen = { type: "agent", agentId: py.id, version: 1 };
      expect((await ok(patch(chosen))).judge).toEqual(chosen);
      expect((await trpc(server).eval.sets.get.query({ id: setId })).judge).toEqual(chosen);

      // a pasted run takes the judge; changing the set's judge later does not change the run's
      const run = await ok(
        api(server, "POST", "/api/eval/runs", { body: { setVersionId: versionId, mode: "pasted" } }),
        201,
      );
      const judgeRef = {
        type: "agent",
        key: `agent:${py.id}@1`,
        agentId: py.id,
        version: 1,
        label: `Set judge ${server.name} v1`,
      };
      expect(run.judge).toEqual(judgeRef);
      await ok(patch({ type: "builtin" }));
      expect((await ok(api(server, "GET", `/api/eval/runs/${run.id}`))).judge).toEqual(judgeRef);
      await ok(
        api(server, "POST", `/api/eval/runs/${run.id}/answers`, {
          body: {
            answers: [
              { key: "q1", answer: GOOD },
              { key: "q2", answer: BAD },
              { key: "q3", answer: "", error: "upstream timeout" },
            ],
          },
        }),
      );
      // the judge agent judges through the queue; every suggestion records it
      const judged = await waitForItems(server, run.id, "the judge agent's suggestions", (all) =>
        all.every((i) => i.suggestion),
      );
      const byKey = Object.fromEntries(judged.map((i) => [i.key, i]));
      expect(byKey.q1!.suggestion).toMatchObject({ verdict: "pass", judge: judgeRef.key, judgedBy: judgeRef });
      expect(byKey.q2!.suggestion).toMatchObject({ verdict: "fail", judgedBy: judgeRef });
      // a failed answer is not sent to the judge agent; the guardrails fail it
      expect(byKey.q3!.suggestion).toMatchObject({ verdict: "fail", judgedBy: judgeRef });
      const report = await ok(api(server, "GET", `/api/eval/runs/${run.id}/report`));
      expect(report.run.judge).toEqual(judgeRef);
      expect(report.agreement.judge).toEqual(judgeRef);

      // an in-platform run with the set's judge now (builtin): answers and suggests with it
      await ok(patch(chosen));
      const live = await ok(
        api(server, "POST", "/api/eval/runs", {
          body: { setVersionId: versionId, mode: "in_platform", tier: "invoke" },
        }),
        201,
      );
      expect(live.judge).toEqual(judgeRef);
      await ok(api(server, "POST", `/api/eval/runs/${live.id}/start`));
      const answered = await waitForItems(server, live.id, "the in-platform run", (all) =>
        all.every((i) => i.status === "answered" && i.suggestion),
      );
      // the offline provider echoes the question: the Python judge finds the points missing
      expect(answered.map((i) => i.suggestion!.judgedBy)).toEqual(answered.map(() => judgeRef));
      expect(answered.every((i) => ["fail", "unknown"].includes(i.suggestion!.verdict))).toBe(true);

      // re-judging with other judges: kept beside the run's own, keyed by judge; the run's own still counts
      const again = await ok(
        api(server, "POST", `/api/eval/runs/${run.id}/suggest`, { body: { judge: { type: "builtin" } } }),
      );
      expect(again).toMatchObject({ judged: 3, queued: 0, judge: { type: "builtin", key: "builtin" } });
      const rubric = await judgeFromRecipe(server, "judge_llm_rubric", "Second judge");
      const rubricKey = `agent:${rubric.id}@1`;
      const queued = await ok(
        api(server, "POST", `/api/eval/runs/${run.id}/suggest`, {
          body: { judge: { type: "agent", agentId: rubric.id, version: 1 } },
        }),
      );
      expect(queued).toMatchObject({
        queued: 3,
        judged: 0,
        judge: { key: rubricKey, label: `Second judge ${server.name} v1` },
      });
      const both = await waitForItems(server, run.id, "the second judge's suggestions", (all) =>
        all.every((i) => i.otherSuggestions[rubricKey]),
      );
      const after = Object.fromEntries(both.map((i) => [i.key, i]));
      expect(after.q1!.suggestion).toMatchObject({ verdict: "pass", judgedBy: judgeRef });
      expect(after.q1!.otherSuggestions.builtin).toMatchObject({ verdict: "pass", judgedBy: { key: "builtin" } });
      expect(after.q2!.otherSuggestions.builtin).toMatchObject({ verdict: "fail" });
      // the rubric judge on the offline provider cannot read its model's reply: unknown with the reason, never a pass
      expect(after.q1!.otherSuggestions[rubricKey]).toMatchObject({
        verdict: "unknown",
        judgedBy: { key: rubricKey, model: "offline" },
      });
      // its model calls are judging tokens (offline estimates), the Python judge's none
      expect(after.q1!.judgeTokens).toBeGreaterThan(0);
      expect(byKey.q1!.judgeTokens).toBe(0);
      const usage = await ok(api(server, "GET", `/api/eval/usage?agentId=${agentId}`));
      expect(usage.totals.judging.tokens).toBeGreaterThan(0);
      expect(usage.totals.judging.modelCalls).toBeGreaterThanOrEqual(2);
      // the queue still reads the run's own judge: one pass, two fails
      const passing = await ok(api(server, "GET", `/api/eval/runs/${run.id}/items?suggestion=pass`));
      expect(passing.items.map((i: Item) => i.key)).toEqual(["q1"]);

      // re-judging with the run's own judge replaces its suggestions; bad judges are refused like a set's
      expect(
        await ok(api(server, "POST", `/api/eval/runs/${run.id}/suggest`, { body: { judge: chosen } })),
      ).toMatchObject({ queued: 3, judge: judgeRef });
      for (const [judge, status, code] of [
        [{ type: "agent", agentId: rubric.id, version: "latest" }, 400, "REQUEST_INVALID"],
        [{ type: "agent", agentId, version: 1 }, 400, "JUDGE_NOT_A_JUDGE"],
        [{ type: "agent", agentId: rubric.id, version: 2 }, 404, "JUDGE_VERSION_NOT_FOUND"],
      ] as const) {
        const r = await api(server, "POST", `/api/eval/runs/${run.id}/suggest`, { body: { judge } });
        expect(r.status).toBe(status);
        expect(r.body.error.code).toBe(code);
      }
      // tRPC re-judges the same way
      const viaTrpc = await trpc(server).eval.runs.suggest.mutate({ id: run.id, body: { judge: { type: "builtin" } } });
      expect(viaTrpc.judge.key).toBe("builtin");
    });
  });
}

/**
 * Calibration (issue 22): a set's judges against human-typed verdicts. 26 questions answered in three ways the two
 * judges read differently: GOOD (built-in pass, Python pass), MIXED (the price only as "12元": built-in pass, Python
 * fail), BAD (both fail). 24 get a typed verdict, 2 an adopted one (left out). Reference kappas: python3 statsmodels
 * 0.15.0 `statsmodels.stats.inter_rater.cohens_kappa` on the 2x2 tables (rows: the judge, columns: the person):
 *   built-in [[11, 6], [1, 6]] -> 0.41666666666666674; Python [[10, 2], [2, 10]] -> 0.6666666666666667.
 */
const MIXED = "I recommend the scallion pancake breakfast dish, 12元.";
type Plan = { answer: string; scenario: string; human: "pass" | "fail" | null; attribution?: string };
const CALIBRATION_PLAN: Plan[] = [
  ...Array.from({ length: 10 }, () => ({ answer: GOOD, scenario: "breakfast", human: "pass" as const })),
  ...Array.from({ length: 2 }, () => ({
    answer: GOOD,
    scenario: "breakfast",
    human: "fail" as const,
    attribution: "expectation",
  })),
  ...Array.from({ length: 4 }, () => ({
    answer: MIXED,
    scenario: "price",
    human: "fail" as const,
    attribution: "data",
  })),
  { answer: MIXED, scenario: "price", human: "pass" },
  ...Array.from({ length: 6 }, () => ({
    answer: BAD,
    scenario: "price",
    human: "fail" as const,
    attribution: "retrieval",
  })),
  { answer: BAD, scenario: "price", human: "pass" },
  { answer: GOOD, scenario: "breakfast", human: null },
  { answer: BAD, scenario: "price", human: null },
];

async function calibration(server: ServerInfo, setId: string, judge?: string) {
  return ok(
    api(server, "GET", `/api/eval/sets/${setId}/calibration${judge ? `?judge=${encodeURIComponent(judge)}` : ""}`),
  );
}

for (const server of servers()) {
  describe(`judge calibration on ${server.name}`, () => {
    it("a set's judges against human-typed verdicts: matrix, kappa, fail precision/recall, by scenario and attribution, side by side", async () => {
      const agent = await ok(
        api(server, "POST", "/api/builder/agents", {
          body: { name: `calibrated agent ${server.name}`, workflow: minimalWorkflow() },
        }),
        201,
      );
      const set = await ok(
        api(server, "POST", "/api/eval/sets", {
          body: { agentId: agent.agent.id, name: "Calibrated set", kind: "golden", gateThreshold: 1 },
        }),
        201,
      );
      const setId = set.id as string;
      await ok(api(server, "PATCH", `/api/eval/sets/${setId}`, { body: { judge: { type: "builtin" } } }));

      // no runs, no verdicts: 200 with zero counts and the reason
      const empty = await calibration(server, setId);
      expect(empty).toMatchObject({
        judge: { type: "builtin", key: "builtin" },
        currentJudge: "builtin",
        humanTyped: 0,
        n: 0,
        pairs: 0,
        matrix: { passPass: 0, passFail: 0, failPass: 0, failFail: 0 },
        kappa: { value: null, count: 0, of: 0 },
        failRecall: { value: null, count: 0, of: 0 },
        judges: [],
        disagreements: [],
        note: expect.stringContaining("no human-typed verdicts"),
      });
      // a bad judge: 400 with a stable code; an unknown set: 404
      for (const judge of ["rubric", "agent:abc@latest", "agent:abc", "agent:@1", "llm@2"]) {
        const r = await api(server, "GET", `/api/eval/sets/${setId}/calibration?judge=${encodeURIComponent(judge)}`);
        expect(r.status, judge).toBe(400);
        expect(r.body.error.code).toBe("REQUEST_INVALID");
      }
      expect((await api(server, "GET", "/api/eval/sets/nope/calibration")).status).toBe(404);

      const samples = CALIBRATION_PLAN.map((p, i) => ({
        key: `c${String(i + 1).padStart(2, "0")}`,
        question: `What should I eat for breakfast (${i + 1})?`,
        expected_points: POINTS,
        classification: p.scenario,
      }));
      await ok(
        api(server, "POST", `/api/eval/sets/${setId}/versions/1/import`, {
          body: { format: "json", content: JSON.stringify(samples) },
        }),
      );
      const v = await ok(api(server, "POST", `/api/eval/sets/${setId}/versions/1/freeze`));
      const run = await ok(
        api(server, "POST", "/api/eval/runs", { body: { setVersionId: v.id, mode: "pasted" } }),
        201,
      );
      await ok(
        api(server, "POST", `/api/eval/runs/${run.id}/answers`, {
          body: { answers: CALIBRATION_PLAN.map((p, i) => ({ key: samples[i]!.key, answer: p.answer })) },
        }),
      );
      const judged = await waitForItems(server, run.id, "the built-in suggestions", (all) =>
        all.every((i) => i.suggestion),
      );
      const byKey = Object.fromEntries(judged.map((i) => [i.key, i]));

      // a few typed verdicts: too few to judge the judge, the figures still there
      const typeVerdict = (i: number) => {
        const p = CALIBRATION_PLAN[i]!;
        return ok(
          api(server, "PUT", `/api/eval/runs/${run.id}/items/${byKey[samples[i]!.key]!.id}/verdict`, {
            body:
              p.human === "fail"
                ? { verdict: "fail", basis: "not what we expect", attribution: p.attribution }
                : { verdict: "pass" },
          }),
        );
      };
      await typeVerdict(0);
      await typeVerdict(11);
      const few = await calibration(server, setId);
      expect(few).toMatchObject({
        humanTyped: 2,
        n: 2,
        matrix: { passPass: 1, passFail: 1, failPass: 0, failFail: 0 },
        note: "too few verdicts to judge the judge",
      });
      for (let i = 0; i < CALIBRATION_PLAN.length; i++)
        if (CALIBRATION_PLAN[i]!.human && i !== 0 && i !== 11) await typeVerdict(i);
      // the last two adopted: never counted (the judge agreeing with itself)
      await ok(api(server, "POST", `/api/eval/runs/${run.id}/adopt`, { body: {} }));

      const builtin = await calibration(server, setId);
      expect(builtin).toMatchObject({
        judge: { type: "builtin", key: "builtin" },
        humanTyped: 24,
        n: 24,
        pairs: 24,
        matrix: { passPass: 11, passFail: 6, failPass: 1, failFail: 6 },
        agreement: { value: 0.7083, count: 17, of: 24 },
        kappa: { count: 17, of: 24 },
        failPrecision: { value: 0.8571, count: 6, of: 7 },
        failRecall: { value: 0.5, count: 6, of: 12 },
        unknownRate: { value: 0, count: 0, of: 24 },
        note: null,
      });
      expect(builtin.kappa.value).toBeCloseTo(0.41666666666666674, 4);
      expect(
        builtin.byScenario.map((s: { name: string; n: number; matrix: unknown }) => [s.name, s.n, s.matrix]),
      ).toEqual([
        ["breakfast", 12, { passPass: 10, passFail: 2, failPass: 0, failFail: 0 }],
        ["price", 12, { passPass: 1, passFail: 4, failPass: 1, failFail: 6 }],
      ]);
      expect(
        builtin.byAttribution.map((a: { name: string; n: number; failRecall: unknown }) => [a.name, a.n, a.failRecall]),
      ).toEqual([
        ["data", 4, { value: 0, count: 0, of: 4 }],
        ["expectation", 2, { value: 0, count: 0, of: 2 }],
        ["retrieval", 6, { value: 1, count: 6, of: 6 }],
      ]);
      expect(builtin.judges.map((j: { judge: { key: string } }) => j.judge.key)).toEqual(["builtin"]);
      expect(builtin.disagreements).toEqual([]);

      // a second judge (the Python judge agent) re-judges the run: its figures side by side, the disagreements listed
      const py = await judgeFromRecipe(server, "judge_python", "Calibration judge");
      const pyKey = `agent:${py.id}@1`;
      await ok(
        api(server, "POST", `/api/eval/runs/${run.id}/suggest`, {
          body: { judge: { type: "agent", agentId: py.id, version: 1 } },
        }),
      );
      await waitForItems(server, run.id, "the Python judge's suggestions", (all) =>
        all.every((i) => i.otherSuggestions[pyKey]),
      );
      const side = await calibration(server, setId);
      expect(side.judge.key).toBe("builtin");
      expect(side.judges.map((j: { judge: { key: string; label: string } }) => [j.judge.key, j.judge.label])).toEqual([
        ["builtin", "built-in point coverage"],
        [pyKey, `Calibration judge ${server.name} v1`],
      ]);
      const pyFigures = {
        n: 24,
        pairs: 24,
        matrix: { passPass: 10, passFail: 2, failPass: 2, failFail: 10 },
        agreement: { value: 0.8333, count: 20, of: 24 },
        failPrecision: { value: 0.8333, count: 10, of: 12 },
        failRecall: { value: 0.8333, count: 10, of: 12 },
        note: null,
      };
      expect(side.judges[0]).toMatchObject({ matrix: builtin.matrix, kappa: builtin.kappa });
      expect(side.judges[1]).toMatchObject(pyFigures);
      expect(side.judges[1].kappa.value).toBeCloseTo(0.6666666666666667, 4);
      // the MIXED answers: the built-in judge says pass, the Python judge fail
      expect(side.disagreementsTotal).toBe(5);
      expect(side.disagreements.map((d: { key: string }) => d.key)).toEqual(["c13", "c14", "c15", "c16", "c17"]);
      expect(side.disagreements[0]).toMatchObject({
        runId: run.id,
        human: "fail",
        verdicts: { builtin: "pass", [pyKey]: "fail" },
      });

      // the candidate calibrated by name, over REST and tRPC
      const asPy = await calibration(server, setId, pyKey);
      expect(asPy).toMatchObject({ judge: { key: pyKey, type: "agent" }, currentJudge: "builtin", ...pyFigures });
      expect(asPy.judges.map((j: { judge: { key: string } }) => j.judge.key)).toEqual([pyKey, "builtin"]);
      const viaTrpc = await trpc(server).eval.sets.calibration.query({ id: setId, query: { judge: pyKey } });
      expect(viaTrpc.matrix).toEqual(pyFigures.matrix);
      // a judge with no suggestions there: zero counts, labelled
      const llm = await calibration(server, setId, "llm");
      expect(llm).toMatchObject({ judge: { key: "llm" }, humanTyped: 24, n: 0, pairs: 0, note: expect.any(String) });

      // switching the judge: to the better one at once; back to the worse one refused unless forced with a reason
      const toPy = { type: "agent", agentId: py.id, version: 1 };
      const patchJudge = (body: Record<string, unknown>) => api(server, "PATCH", `/api/eval/sets/${setId}`, { body });
      expect((await ok(patchJudge({ judge: toPy }))).judge).toEqual(toPy);
      const refused = await patchJudge({ judge: { type: "builtin" } });
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe("JUDGE_AGREEMENT_DROP");
      const figures = {
        current: { key: pyKey, n: 24, pairs: 24, kappa: 0.6667, failRecall: 0.8333 },
        candidate: { key: "builtin", n: 24, pairs: 24, kappa: 0.4167, failRecall: 0.5 },
        enough: true,
        drops: ["kappa", "failRecall"],
      };
      expect(refused.body.error.details[0]).toEqual(figures);
      const noReason = await patchJudge({ judge: { type: "builtin" }, force: true });
      expect(noReason.status).toBe(400);
      expect(noReason.body.error.code).toBe("REQUEST_INVALID");
      expect((await ok(api(server, "GET", `/api/eval/sets/${setId}`))).judge).toEqual(toPy);
      const forced = await ok(
        patchJudge({ judge: { type: "builtin" }, force: true, reason: "the Python judge is too slow for us" }),
      );
      expect(forced.judge).toEqual({ type: "builtin" });
      const history = (await ok(api(server, "GET", `/api/eval/sets/${setId}`))).judgeHistory;
      expect(history).toEqual([
        expect.objectContaining({
          before: toPy,
          after: { type: "builtin" },
          figures,
          forced: true,
          reason: "the Python judge is too slow for us",
          byId: expect.any(String),
        }),
        expect.objectContaining({
          before: { type: "builtin" },
          after: toPy,
          figures: { ...figures, current: figures.candidate, candidate: figures.current, drops: [] },
          forced: false,
          reason: null,
        }),
        expect.objectContaining({ before: null, after: { type: "builtin" }, figures: null, forced: false }),
      ]);
    });
  });
}

/**
 * The LLM rubric judge over HTTP (issue 22), on each database: a server of the leg's kind started beside the shared
 * one (the shared servers have no model), whose model provider is a local OpenAI-compatible server this file starts
 * (the real `openai` client calls it). It answers the judge_llm_rubric recipe's prompt as `rubricJudgeReply` reads an
 * answer (a point is covered when the answer has its last word: GOOD passes, MIXED and BAD fail, the Python judge's
 * table above, kappa 0.6667), and the built-in LLM judge's rubric with every point covered (the refusals still fail
 * by the guardrails: the built-in judge's table, kappa 0.4167). The walk: a set with the calibration plan's typed
 * verdicts, a switch to the rubric judge answered 202 with the comparison job that judges the 24 items through the
 * model and switches; a run judged by it; a switch to the LLM judge refused by its job; forced with a reason; the
 * rubric judge agent cannot be deleted while the set uses it.
 */
for (const server of servers()) {
  describe(`the LLM rubric judge through a local model server on ${server.name}`, () => {
    let model: FakeLlmServer;
    let own: StartedServer;
    let drop: () => Promise<void> = async () => undefined;
    const rubricCalls = () =>
      model.requests.filter((r) =>
        r.body.messages?.some((m) => m.role === "system" && m.content.startsWith("You judge an AI assistant")),
      ).length;

    beforeAll(async () => {
      model = await startFakeLlmServer({
        usage: () => ({ prompt: 40, completion: 20 }),
        respond: (r) => {
          const messages = r.body.messages ?? [];
          const rubric = rubricJudgeReply(messages);
          if (rubric) return rubric;
          if (messages.some((m) => m.role === "system" && m.content.includes("strict evaluator"))) {
            const user = JSON.parse(messages.at(-1)?.content ?? "{}") as { expected_points?: unknown[] };
            return JSON.stringify({
              points: (user.expected_points ?? []).map((_, index) => ({ index, covered: true, evidence: "stated" })),
              rationale: "every point is covered",
            });
          }
          return "I recommend the scallion pancake breakfast dish; the price is 12 yuan.";
        },
      });
      // a folder, not pglite:memory: startServer fills it with the migrated empty database (a copy) instead of the
      // server applying every migration at start-up, which took 95 s on a loaded machine and ran out the 120 s wait
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "flowbench-it-judges-"));
      let url = `pglite:${dir}`;
      drop = async () => fs.rmSync(dir, { recursive: true, force: true });
      if (server.name === "postgresql") ({ url, drop } = await createPostgresDatabase({ migrated: true }));
      own = await startServer(`judges-llm-${server.name}`, url, {
        OPENAI_BASE_URL: model.url,
        OPENAI_API_KEY: "sk-local-test",
      });
    }, 240_000);
    afterAll(async () => {
      await own?.stop();
      await drop();
      await model?.close();
    });

    it("a rubric judge from the recipe: a 202 comparison job switches to it, it judges a run, a worse judge's job is refused, a forced switch is kept", async () => {
      const target: ServerInfo = {
        name: own.name,
        url: own.url,
        adminToken: own.adminToken,
        adminEmail: own.adminEmail,
        adminPassword: own.adminPassword,
      };
      const agent = await ok(
        api(target, "POST", "/api/builder/agents", {
          body: { name: "rubric-judged agent", workflow: minimalWorkflow() },
        }),
        201,
      );
      const set = await ok(
        api(target, "POST", "/api/eval/sets", {
          body: { agentId: agent.agent.id, name: "Rubric set", kind: "golden", gateThreshold: 1 },
        }),
        201,
      );
      const setId = set.id as string;
      const patchJudge = (body: Record<string, unknown>) => api(target, "PATCH", `/api/eval/sets/${setId}`, { body });
      await ok(patchJudge({ judge: { type: "builtin" } }));
      const samples = CALIBRATION_PLAN.map((p, i) => ({
        key: `c${String(i + 1).padStart(2, "0")}`,
        question: `What should I eat for breakfast (${i + 1})?`,
        expected_points: POINTS,
        classification: p.scenario,
      }));
      await ok(
        api(target, "POST", `/api/eval/sets/${setId}/versions/1/import`, {
          body: { format: "json", content: JSON.stringify(samples) },
        }),
      );
      const v = await ok(api(target, "POST", `/api/eval/sets/${setId}/versions/1/freeze`));
      const run = await ok(
        api(target, "POST", "/api/eval/runs", { body: { setVersionId: v.id, mode: "pasted" } }),
        201,
      );
      await ok(
        api(target, "POST", `/api/eval/runs/${run.id}/answers`, {
          body: { answers: CALIBRATION_PLAN.map((p, i) => ({ key: samples[i]!.key, answer: p.answer })) },
        }),
      );
      const judged = await waitForItems(target, run.id, "the built-in suggestions", (all) =>
        all.every((i) => i.suggestion),
      );
      const byKey = Object.fromEntries(judged.map((i) => [i.key, i]));
      for (const [i, p] of CALIBRATION_PLAN.entries()) {
        if (!p.human) continue;
        await ok(
          api(target, "PUT", `/api/eval/runs/${run.id}/items/${byKey[samples[i]!.key]!.id}/verdict`, {
            body:
              p.human === "fail"
                ? { verdict: "fail", basis: "not what we expect", attribution: p.attribution }
                : { verdict: "pass" },
          }),
        );
      }

      // the rubric judge has no suggestions on the 24 typed items: 202 with the comparison job
      // the recipe as it is, but for its code node's time limit: 30 s (the contract's most) instead of 5, so a sandbox
      // slowed by a loaded machine does not turn a judging into unknown (it once did on the PostgreSQL leg at load 37)
      const { workflow } = await recipe(target, "judge_llm_rubric");
      workflow.nodes.find((n: { id: string }) => n.id === "parse").config.timeout = 30_000;
      const rubric = (
        await ok(
          api(target, "POST", "/api/builder/agents", {
            body: { name: `Rubric judge ${own.name}`, kind: "judge", workflow },
          }),
          201,
        )
      ).agent as { id: string };
      const rubricSpec = { type: "agent", agentId: rubric.id, version: 1 };
      const rubricKey = `agent:${rubric.id}@1`;
      const accepted = await patchJudge({ judge: rubricSpec });
      expect(accepted.status, accepted.text).toBe(202);
      expect(accepted.body.job).toMatchObject({
        kind: "judge_comparison",
        setId,
        status: "running",
        progress: { total: 24 },
        request: { judge: rubricSpec, force: false, reason: null },
        result: null,
      });
      const jobId = accepted.body.job.id as string;
      // the job's address: auth, 404, tRPC
      expect((await api(target, "GET", `/api/eval/jobs/${jobId}`, { token: null })).status).toBe(401);
      const unknown = await api(target, "GET", "/api/eval/jobs/no-such-job");
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe("NOT_FOUND");
      expect((await trpc(target).eval.jobs.get.query({ id: jobId })).id).toBe(jobId);
      const finished = async (id: string) => {
        const until = Date.now() + 120_000;
        for (;;) {
          const job = await ok(api(target, "GET", `/api/eval/jobs/${id}`));
          if (job.status !== "running") return job;
          expect(job.progress.done).toBeLessThanOrEqual(24);
          if (Date.now() > until) throw new Error(`the comparison job did not finish: ${JSON.stringify(job)}`);
          await new Promise((r) => setTimeout(r, 250));
        }
      };
      const switched = await finished(jobId);
      expect(switched).toMatchObject({
        status: "succeeded",
        progress: { done: 24, total: 24 },
        result: {
          switched: true,
          refusal: null,
          figures: {
            current: { key: "builtin", n: 24, kappa: 0.4167, failRecall: 0.5 },
            candidate: { key: rubricKey, n: 24, kappa: 0.6667, failRecall: 0.8333 },
            enough: true,
            drops: [],
          },
        },
        error: null,
      });
      expect(rubricCalls()).toBe(24);
      expect((await ok(api(target, "GET", `/api/eval/sets/${setId}`))).judge).toEqual(rubricSpec);
      // its suggestions are kept beside the run's own, with the model that answered; its calls are judging tokens
      const after = await items(target, run.id);
      expect(after.find((i) => i.key === "c13")!.otherSuggestions[rubricKey]).toMatchObject({
        verdict: "fail",
        judgedBy: { key: rubricKey, type: "agent" },
      });
      expect(after.find((i) => i.key === "c01")!.otherSuggestions[rubricKey]).toMatchObject({ verdict: "pass" });
      const cal = await calibration(target, setId);
      expect(cal).toMatchObject({ judge: { key: rubricKey }, currentJudge: rubricKey, n: 24 });
      expect(cal.kappa.value).toBeCloseTo(0.6666666666666667, 4);

      // a run created now takes the rubric judge: its answers are judged through the model
      const next = await ok(
        api(target, "POST", "/api/eval/runs", { body: { setVersionId: v.id, mode: "pasted" } }),
        201,
      );
      expect(next.judge).toMatchObject({ key: rubricKey, label: `Rubric judge ${own.name} v1` });
      await ok(
        api(target, "POST", `/api/eval/runs/${next.id}/answers`, {
          body: {
            answers: [
              { key: "c01", answer: GOOD },
              { key: "c13", answer: MIXED },
            ],
          },
        }),
      );
      const ownJudged = await waitForItems(target, next.id, "the rubric judge's suggestions", (all) =>
        all.filter((i) => i.status === "answered").every((i) => i.suggestion),
      );
      const mine = Object.fromEntries(ownJudged.map((i) => [i.key, i]));
      expect(mine.c01!.suggestion).toMatchObject({ verdict: "pass", judgedBy: { key: rubricKey } });
      expect(mine.c13!.suggestion).toMatchObject({ verdict: "fail", judgedBy: { key: rubricKey } });
      expect(mine.c01!.judgeTokens).toBe(60);

      // the LLM judge (every point covered) is worse: its job records the refusal, the judge stays
      const llm = await patchJudge({ judge: { type: "llm" } });
      expect(llm.status, llm.text).toBe(202);
      const refused = await finished(llm.body.job.id);
      expect(refused).toMatchObject({
        status: "succeeded",
        result: {
          switched: false,
          figures: {
            current: { key: rubricKey, kappa: 0.6667 },
            candidate: { key: "llm", n: 24, kappa: 0.4167, failRecall: 0.5 },
            drops: ["kappa", "failRecall"],
          },
          refusal: { code: "JUDGE_AGREEMENT_DROP" },
        },
      });
      expect(refused.result.refusal.details[0]).toEqual(refused.result.figures);
      expect((await ok(api(target, "GET", `/api/eval/sets/${setId}`))).judge).toEqual(rubricSpec);
      // it has suggestions there now: the PATCH decides at once (409), and forced with a reason it switches (200)
      const again = await patchJudge({ judge: { type: "llm" } });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe("JUDGE_AGREEMENT_DROP");
      const forced = await ok(patchJudge({ judge: { type: "llm" }, force: true, reason: "one judge for every set" }));
      expect(forced.judge).toEqual({ type: "llm" });
      const history = (await ok(api(target, "GET", `/api/eval/sets/${setId}`))).judgeHistory;
      expect(history[0]).toMatchObject({
        before: rubricSpec,
        after: { type: "llm" },
        forced: true,
        reason: "one judge for every set",
      });
      expect(history[1]).toMatchObject({ before: { type: "builtin" }, after: rubricSpec, forced: false });

      // back to the rubric judge (at once: it has suggestions); then it cannot be deleted while the set uses it
      await ok(patchJudge({ judge: rubricSpec }));
      const del = await api(target, "DELETE", `/api/builder/agents/${rubric.id}`);
      expect(del.status).toBe(409);
      expect(del.body.error).toMatchObject({
        code: "JUDGE_IN_USE",
        details: [{ path: `/sets/${setId}`, message: "Rubric set", code: "judge_of_set" }],
      });
    }, 240_000);
  });
}
