import { describe, expect, it } from "vitest";
import { coverageJudge, llmJudge, type JudgeProvider } from "./judge";
import { contentTokens } from "./text";

describe("built-in point-coverage judge", () => {
  it("tokenises Chinese with Intl.Segmenter, not whitespace", () => {
    expect(contentTokens("推荐了早餐菜品").map((t) => t.text)).toEqual(["推荐", "早餐", "菜品"]);
    expect(contentTokens("给出价格").map((t) => t.text)).toEqual(["价格"]);
    expect(contentTokens("mentions the price").map((t) => t.text)).toEqual(["price"]);
  });
  it("Chinese: covered points pass, a missing point fails", () => {
    const ok = coverageJudge(["推荐了早餐菜品", "给出价格"], "为您推荐以下早餐：豆浆油条、小笼包，价格12元。");
    expect(ok.verdict).toBe("pass");
    expect(ok.coverage.map((c) => c.status)).toEqual(["covered", "covered"]);
    const bad = coverageJudge(["推荐了早餐菜品", "给出价格"], "为您推荐以下早餐：豆浆油条、小笼包。");
    expect(bad.verdict).toBe("fail");
    expect(bad.coverage[1]).toMatchObject({ point: "给出价格", status: "missing" });
    expect(coverageJudge(["推荐了早餐菜品"], "今天天气很好。").verdict).toBe("fail");
  });
  it("English: concept synonyms (price = costs $5) and stems", () => {
    expect(coverageJudge(["mentions the price"], "The set costs $5.99.").verdict).toBe("pass");
    expect(coverageJudge(["mentions the price"], "We suggest eggs and toast.").verdict).toBe("fail");
    expect(
      coverageJudge(["recommends breakfast dishes"], "I recommend these breakfast options:\n1. Pancakes\n2. Porridge")
        .verdict,
    ).toBe("pass");
  });
  it("partial coverage is unknown, no points is unknown", () => {
    const partial = coverageJudge(
      ["recommends a breakfast dish with its price"],
      "I recommend the pancake for breakfast.",
    );
    expect(partial.coverage[0]!.status).toBe("partial");
    expect(partial.verdict).toBe("unknown");
    expect(coverageJudge([], "anything").verdict).toBe("unknown");
  });
  it("mixed Chinese and English", () => {
    expect(coverageJudge(["推荐早餐", "mentions the price"], "推荐早餐: Scallion pancake, ¥12").verdict).toBe("pass");
  });
});

describe("LLM judge", () => {
  const provider = (text: string): JudgeProvider => ({
    name: "fake",
    offline: false,
    chat: async () => ({ text, usage: { promptTokens: 100, completionTokens: 20 }, model: "m" }),
  });
  it("maps covered/not covered/null per point and counts usage", async () => {
    const r = await llmJudge(
      provider(
        '```json\n{"points":[{"index":0,"covered":true},{"index":1,"covered":false,"evidence":"no price"}],"rationale":"price missing"}\n```',
      ),
      {
        question: "q",
        points: ["a", "b"],
        answer: "x",
      },
    );
    expect(r.verdict).toBe("fail");
    expect(r.coverage.map((c) => c.status)).toEqual(["covered", "missing"]);
    expect(r.usage).toEqual({ promptTokens: 100, completionTokens: 20, calls: 1, model: "m" });
    expect(
      (
        await llmJudge(provider('{"points":[{"index":0,"covered":null}]}'), {
          question: "q",
          points: ["a"],
          answer: "x",
        })
      ).verdict,
    ).toBe("unknown");
  });
  it("an unreadable reply is unknown, never pass", async () => {
    const r = await llmJudge(provider("I think it is fine"), { question: "q", points: ["a"], answer: "x" });
    expect(r.verdict).toBe("unknown");
    expect(r.error).toMatch(/unparseable/);
  });
});
