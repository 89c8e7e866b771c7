import { describe, expect, it } from "vitest";
import { coverageJudge } from "./judge";
import { computeFlags, isRefusal } from "./guardrails";
import { combineSuggestion, inferAttribution, needsSpotCheck } from "./suggest";

describe("guardrails and the combined suggestion", () => {
  const http = (status: string, result: unknown, ok = true) => ({
    type: "http",
    status,
    output: { status: 200, ok, result, headers: {} },
  });
  it("no query performed, empty items in a live tier, fabricated items", () => {
    expect(
      computeFlags({
        tier: "pipeline",
        answer: "hi",
        payload: null,
        failed: false,
        steps: [{ type: "llm", status: "succeeded" }],
        hasHttpNodes: true,
      }).map((f) => f.flag),
    ).toEqual(["no_query"]);
    expect(
      computeFlags({
        tier: "pipeline_live",
        answer: "none",
        payload: null,
        failed: false,
        steps: [http("succeeded", { dishes: [] })],
      }).map((f) => f.flag),
    ).toEqual(["empty_items"]);
    const fab = computeFlags({
      tier: "pipeline_live",
      answer: "Try:\n1. Mapo tofu - spicy\n2. Unicorn steak - rare",
      payload: null,
      failed: false,
      steps: [http("succeeded", { dishes: [{ name: "Mapo tofu" }, { name: "Kung pao chicken" }] })],
    });
    expect(fab.map((f) => f.flag)).toEqual(["fabricated_items"]);
    expect(fab[0]!.message).toContain("Unicorn steak");
    const payloadFab = computeFlags({
      tier: "pipeline",
      answer: "ok",
      payload: { goods_list: [{ name: "豆浆" }] },
      failed: false,
      steps: [http("succeeded", { items: [], dryRun: true })],
    });
    expect(payloadFab.map((f) => f.flag)).toEqual(["fabricated_items"]);
    expect(
      computeFlags({ tier: "invoke", answer: "ok", payload: null, failed: false, steps: [], hasHttpNodes: true }),
    ).toEqual([]);
  });
  it("refusal and execution errors", () => {
    expect(isRefusal("I'm sorry, but I can't help with that.")).toBe(true);
    expect(isRefusal("抱歉，我无法回答这个问题。")).toBe(true);
    expect(isRefusal("推荐豆浆油条，价格12元。")).toBe(false);
    expect(
      computeFlags({ tier: "invoke", answer: "", payload: null, failed: true, error: "LLM_TIMEOUT: slow" }).map(
        (f) => f.flag,
      ),
    ).toEqual(["execution_error", "empty_answer"]);
  });
  it("combines: blocking flags and failed rules fail; non-blocking flags make a pass unknown", () => {
    const pass = coverageJudge(["mentions the price"], "It costs $5");
    expect(combineSuggestion(pass, [], []).verdict).toBe("pass");
    expect(combineSuggestion(pass, [], [{ flag: "no_query", message: "" }]).verdict).toBe("fail");
    expect(
      combineSuggestion(pass, [{ type: "contains", label: "x", passed: false, message: "", scope: "sample" }], [])
        .verdict,
    ).toBe("fail");
    const flagged = combineSuggestion(pass, [], [{ flag: "empty_items", message: "" }]);
    expect(flagged.verdict).toBe("unknown");
    expect(needsSpotCheck(flagged)).toBe(true);
    expect(inferAttribution({ flags: [{ flag: "no_query", message: "" }], failedRules: [] })).toBe("retrieval");
  });
});
