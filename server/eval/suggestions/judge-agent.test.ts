import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../../db/generated/client";
import { createAgent } from "../../agents/service";
import { startFakeLlmServer, useModelServer, type FakeLlmServer } from "../../llm/testing";
import { RECIPES } from "../../workflow";
import { createEvalTestDb, llmWorkflow, rubricJudgeReply } from "../testing";
import { checkJudge, resolveJudge, runJudgeAgent, type ResolvedJudge } from "./judge-agent";
import { suggest, suggestInputFor } from "./judging";

/**
 * Judge agents on the embedded database through the real runtime: the judge_llm_rubric recipe against a local
 * OpenAI-compatible server (the real `openai` client), the judge_python recipe in the sandbox, and every way a judge
 * agent can fail to give a verdict (unknown with the reason, never a pass).
 */
describe("judge agents (runtime, local model server, sandbox)", () => {
  let db: PrismaClient;
  let close: () => Promise<void>;
  let model: FakeLlmServer;
  let restoreEnv: () => void = () => undefined;
  const points = ["recommends a breakfast dish", "mentions the price"];
  const input = (answer: string) => ({
    question: "What should I eat for breakfast?",
    points,
    answer,
    payload: null,
    script: null,
    scenario: "breakfast",
  });
  const judgeOf = async (name: string, workflow: unknown): Promise<{ id: string; judge: ResolvedJudge }> => {
    const { agent } = await createAgent(db, { name, kind: "judge", workflow }, null, {});
    return { id: agent.id, judge: await resolveJudge(db, { type: "agent", agentId: agent.id, version: 1 }) };
  };

  beforeAll(async () => {
    model = await startFakeLlmServer({
      usage: () => ({ prompt: 30, completion: 12 }),
      respond: (r) => rubricJudgeReply(r.body.messages ?? []) ?? "not a judge prompt",
    });
    restoreEnv = useModelServer(model.url);
    ({ db, close } = await createEvalTestDb());
  }, 60_000);
  afterAll(async () => {
    await close();
    await model.close();
    restoreEnv();
  });

  it("the LLM rubric judge: the model's JSON becomes the verdict, its tokens judging tokens, the judge recorded", async () => {
    const { id, judge } = await judgeOf("Rubric judge", RECIPES.judge_llm_rubric.workflow);
    expect(judge.ref).toEqual({
      type: "agent",
      key: `agent:${id}@1`,
      agentId: id,
      version: 1,
      label: "Rubric judge v1",
    });
    const pass = await runJudgeAgent(
      db,
      judge as Extract<ResolvedJudge, { type: "agent" }>,
      input("Scallion pancake dish, a fair price."),
    );
    expect(pass).toMatchObject({
      verdict: "pass",
      rationale: "every point is covered",
      judgedBy: { key: `agent:${id}@1`, label: "Rubric judge v1", model: expect.any(String) },
      usage: { promptTokens: 30, completionTokens: 12, calls: 1 },
      coverage: points.map((point) => ({ point, status: "covered", score: 1 })),
    });
    expect(pass.error).toBeUndefined();
    // through suggest(): the suggestion records the judge, the tokens are the item's judging tokens
    const out = await suggest(
      suggestInputFor(
        { question: "What should I eat?", expectedPoints: points, assertions: null, classification: "breakfast" },
        { tier: "invoke", setAssertions: null },
        { answer: "Scallion pancake dish.", payload: null, failed: false, error: null },
      ),
      { judge, db },
    );
    expect(out.suggestion).toMatchObject({
      verdict: "fail",
      judge: `agent:${id}@1`,
      judgedBy: { type: "agent", agentId: id, version: 1 },
      rationale: expect.stringContaining("missing: mentions the price"),
    });
    expect(out.judgeTokens).toBe(42);
    expect(out.judgeCalls).toBe(1);
    expect(out.judgeUsage).toEqual([{ model: expect.any(String), promptTokens: 30, completionTokens: 12 }]);
    // the judge's execution is a trace of the judge agent (source eval)
    expect(await db.trace.count({ where: { agentId: id, source: "eval" } })).toBe(2);
    // an empty answer or a failed execution: the judge agent is not called, the guardrails make it fail
    const before = model.requests.length;
    const empty = await suggest(
      suggestInputFor(
        { question: "q", expectedPoints: points, assertions: null },
        { tier: "invoke", setAssertions: null },
        { answer: "", payload: null, failed: false, error: null },
      ),
      { judge, db },
    );
    expect(empty.suggestion).toMatchObject({ verdict: "fail", judgedBy: { key: `agent:${id}@1` } });
    expect(model.requests.length).toBe(before);
  });

  it("the Python judge scores in the sandbox without a model", async () => {
    const { judge } = await judgeOf("Python judge", RECIPES.judge_python.workflow);
    const agentJudge = judge as Extract<ResolvedJudge, { type: "agent" }>;
    const pass = await runJudgeAgent(
      db,
      agentJudge,
      input("I recommend the scallion pancake breakfast dish; the price is 12 yuan."),
    );
    expect(pass).toMatchObject({ verdict: "pass", rationale: "2/2 points covered", usage: { calls: 0 } });
    const fail = await runJudgeAgent(db, agentJudge, input("Sorry, I cannot help."));
    expect(fail.verdict).toBe("fail");
  });

  it("an answer that is not a judge answer, a failing or timed-out node, a missing version: unknown with the reason", async () => {
    // a judge whose end outputs the answer it was given: valid as a judge, but its output is no judge answer
    const echo = structuredClone(RECIPES.judge_python.workflow) as {
      nodes: Array<{ config: Record<string, unknown> }>;
    };
    echo.nodes[2]!.config.output = "{{start.answer}}";
    const { judge: echoJudge } = await judgeOf("Echo judge", echo);
    const notAnAnswer = await runJudgeAgent(db, echoJudge as Extract<ResolvedJudge, { type: "agent" }>, input("pass"));
    expect(notAnAnswer).toMatchObject({
      verdict: "unknown",
      error: 'the judge agent\'s answer is not JSON: "pass"',
      coverage: points.map((point) => ({ point, status: "unclear" })),
    });
    const wrongShape = await runJudgeAgent(
      db,
      echoJudge as Extract<ResolvedJudge, { type: "agent" }>,
      input('{"verdict":"yes"}'),
    );
    expect(wrongShape.verdict).toBe("unknown");
    expect(wrongShape.error).toMatch(/not a judge answer/);

    // a code node that never ends: its timeout fails the run
    const slow = structuredClone(RECIPES.judge_python.workflow) as typeof echo;
    slow.nodes[1]!.config.code = "while True:\n    pass\n";
    slow.nodes[1]!.config.timeout = 200;
    const { judge: slowJudge } = await judgeOf("Slow judge", slow);
    const timedOut = await runJudgeAgent(db, slowJudge as Extract<ResolvedJudge, { type: "agent" }>, input("x"));
    expect(timedOut.verdict).toBe("unknown");
    expect(timedOut.error).toMatch(/^the judge agent's run failed: TIMEOUT: .*\(node score\)/);

    // a broken one: the version does not exist (or the agent was deleted)
    const gone = await resolveJudge(db, { type: "agent", agentId: "no-such-agent", version: 3 });
    expect(gone).toMatchObject({ broken: expect.stringContaining("has no version 3") });
    const r = await runJudgeAgent(db, gone as Extract<ResolvedJudge, { type: "agent" }>, input("x"));
    expect(r).toMatchObject({ verdict: "unknown", error: expect.stringContaining("has no version 3") });
    const s = await suggest(
      suggestInputFor(
        { question: "q", expectedPoints: points, assertions: null },
        { tier: "invoke", setAssertions: null },
        { answer: "an answer", payload: null, failed: false, error: null },
      ),
      { judge: gone, db },
    );
    expect(s.suggestion.verdict).toBe("unknown");
    expect(s.suggestion.judgeError).toMatch(/has no version 3/);
  });

  it("choosing a judge: a pinned version of an agent of kind judge whose workflow still validates", async () => {
    const { id } = await judgeOf("Chosen judge", RECIPES.judge_python.workflow);
    await expect(checkJudge(db, { type: "agent", agentId: id, version: 1 })).resolves.toBeUndefined();
    await expect(checkJudge(db, { type: "builtin" })).resolves.toBeUndefined();
    await expect(checkJudge(db, { type: "agent", agentId: id, version: 2 })).rejects.toMatchObject({
      status: 404,
      code: "JUDGE_VERSION_NOT_FOUND",
    });
    await expect(checkJudge(db, { type: "agent", agentId: "nope", version: 1 })).rejects.toMatchObject({
      status: 404,
      code: "JUDGE_VERSION_NOT_FOUND",
    });
    const { agent } = await createAgent(db, { name: "Plain agent", workflow: llmWorkflow() }, null, {});
    await expect(checkJudge(db, { type: "agent", agentId: agent.id, version: 1 })).rejects.toMatchObject({
      status: 400,
      code: "JUDGE_NOT_A_JUDGE",
    });
    // a judge whose version breaks the contract (versions are immutable, so made here by turning an agent into a
    // judge behind the service's back): refused with the findings
    await db.agent.update({ where: { id: agent.id }, data: { kind: "judge" } });
    await expect(checkJudge(db, { type: "agent", agentId: agent.id, version: 1 })).rejects.toMatchObject({
      status: 400,
      code: "WORKFLOW_INVALID",
      details: expect.arrayContaining([expect.objectContaining({ code: "JUDGE_INPUT_MISSING" })]),
    });
  });
});
