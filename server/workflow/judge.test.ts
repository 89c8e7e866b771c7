import { describe, expect, it } from "vitest";
import { JudgeAnswerSchema, judgeContractFindings } from "./judge";
import { RECIPES } from "./recipes";
import { validateWorkflowRequest } from "./validate";

const codes = (body: unknown) => {
  const r = validateWorkflowRequest(body);
  return { valid: r.valid, errors: r.errors.map((f) => f.code), warnings: r.warnings.map((f) => f.code) };
};

describe("the judge contract", () => {
  it("both judge recipes follow it; the agent recipes do not, and are still valid agents", () => {
    for (const name of ["judge_llm_rubric", "judge_python"] as const) {
      expect(RECIPES[name].kind).toBe("judge");
      expect(codes({ workflow: RECIPES[name].workflow, kind: "judge" })).toEqual({
        valid: true,
        errors: [],
        warnings: [],
      });
    }
    for (const name of ["minimal", "http_call_thin"] as const) {
      expect(RECIPES[name].kind).toBe("agent");
      expect(codes({ workflow: RECIPES[name].workflow }).valid).toBe(true);
      expect(codes({ workflow: RECIPES[name].workflow, kind: "agent" }).valid).toBe(true);
    }
    // the minimal agent as a judge: none of the three inputs, and its `query` has a default (so it is not unexpected)
    const asJudge = validateWorkflowRequest({ workflow: RECIPES.minimal.workflow, kind: "judge" });
    expect(asJudge.valid).toBe(false);
    expect(asJudge.errors.map((f) => [f.code, f.path])).toEqual([
      ["JUDGE_INPUT_MISSING", "/workflow/nodes/0/config/outputs"],
      ["JUDGE_INPUT_MISSING", "/workflow/nodes/0/config/outputs"],
      ["JUDGE_INPUT_MISSING", "/workflow/nodes/0/config/outputs"],
    ]);
    expect(asJudge.errors.map((f) => f.message).join(" ")).toMatch(/"question".*"expected_points".*"answer"/);
  });

  it("checks types of the optional inputs too; a start variable may stand for a required input", () => {
    const wf = structuredClone(RECIPES.judge_python.workflow) as {
      nodes: Array<{ config: { outputs?: unknown[]; variables?: unknown } }>;
    };
    wf.nodes[0]!.config.outputs!.push(
      { name: "payload", type: "array" },
      { name: "script", type: "array" },
      { name: "scenario", type: "number" },
    );
    const r = validateWorkflowRequest({ workflow: wf, kind: "judge" });
    expect(r.errors.map((f) => [f.code, f.path])).toEqual([
      ["JUDGE_INPUT_TYPE", "/workflow/nodes/0/config/outputs/3/type"],
      ["JUDGE_INPUT_TYPE", "/workflow/nodes/0/config/outputs/5/type"],
    ]);
    const withVariable = structuredClone(RECIPES.judge_python.workflow) as typeof wf;
    withVariable.nodes[0]!.config.outputs!.splice(0, 1);
    withVariable.nodes[0]!.config.variables = { question: "fixed" };
    expect(judgeContractFindings(withVariable, "/workflow")).toEqual([]);
  });

  it("a fixed end output must be a judge answer; a template output is read at run time", () => {
    const withOutput = (output: string) => {
      const wf = structuredClone(RECIPES.judge_python.workflow) as { nodes: Array<{ config: { output?: string } }> };
      wf.nodes[2]!.config.output = output;
      return judgeContractFindings(wf).map((f) => `${f.severity}:${f.code}`);
    };
    expect(withOutput("{{score.result}}")).toEqual([]);
    expect(withOutput(" {{ score.result }} ")).toEqual([]);
    expect(withOutput('{"verdict":"pass"}')).toEqual([]);
    expect(withOutput('{"verdict":"maybe"}')).toEqual(["error:JUDGE_OUTPUT_INVALID"]);
    expect(withOutput("pass")).toEqual(["error:JUDGE_OUTPUT_INVALID"]);
    expect(withOutput("   ")).toEqual(["error:JUDGE_OUTPUT_MISSING"]);
    expect(withOutput('{"verdict":"{{score.result.verdict}}"}')).toEqual(["warning:JUDGE_OUTPUT_NOT_SINGLE_VALUE"]);
  });

  it("an unknown kind is a finding at /kind; a broken workflow gets the validator's findings, not a crash", () => {
    expect(codes({ workflow: RECIPES.minimal.workflow, kind: "grader" }).errors).toEqual(["AGENT_KIND_UNKNOWN"]);
    expect(validateWorkflowRequest({ workflow: RECIPES.minimal.workflow, kind: 3 }).errors[0]).toMatchObject({
      code: "AGENT_KIND_UNKNOWN",
      path: "/kind",
      message: expect.stringContaining("a number"),
    });
    expect(codes({ workflow: { nodes: "x", edges: [] }, kind: "judge" }).errors).toEqual(["BODY_INVALID_TYPE"]);
    expect(judgeContractFindings(null)).toEqual([]);
    expect(judgeContractFindings({ nodes: [null, 3, { type: "start", config: [] }] })).toHaveLength(3);
  });

  it("the judge answer schema: verdict required, points with a known status", () => {
    expect(JudgeAnswerSchema.safeParse({ verdict: "pass" }).success).toBe(true);
    expect(
      JudgeAnswerSchema.safeParse({ verdict: "fail", rationale: "x", points: [{ point: "a", status: "missing" }] })
        .success,
    ).toBe(true);
    expect(JudgeAnswerSchema.safeParse({ verdict: "PASS" }).success).toBe(false);
    expect(JudgeAnswerSchema.safeParse({ rationale: "x" }).success).toBe(false);
    expect(JudgeAnswerSchema.safeParse({ verdict: "pass", points: [{ point: "a", status: "unclear" }] }).success).toBe(
      false,
    );
  });
});
