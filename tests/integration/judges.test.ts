import { describe, expect, it } from "vitest";
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
  });
}
