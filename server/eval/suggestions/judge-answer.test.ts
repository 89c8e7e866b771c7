import { describe, expect, it } from "vitest";
import { judgeResultOfAnswer, parseJudgeAnswer, unknownJudgeResult } from "./judge-answer";
import { combineSuggestion } from "./suggest";
import type { JudgeRef } from "./schemas";

const ref: JudgeRef = { type: "agent", key: "agent:a1@2", agentId: "a1", version: 2, label: "Strict judge v2" };

describe("reading a judge agent's answer", () => {
  it("accepts the contract's JSON, alone or wrapped in text or a code fence", () => {
    const json = '{"verdict":"fail","rationale":"no price","points":[{"point":"price","status":"missing"}]}';
    for (const text of [json, `  ${json}\n`, `Here you go:\n\`\`\`json\n${json}\n\`\`\``]) {
      const parsed = parseJudgeAnswer(text);
      expect(parsed).toEqual({
        ok: true,
        answer: { verdict: "fail", rationale: "no price", points: [{ point: "price", status: "missing" }] },
      });
    }
    expect(parseJudgeAnswer('{"verdict":"pass"}')).toEqual({ ok: true, answer: { verdict: "pass" } });
  });

  it("anything else is not an answer, with the reason", () => {
    const reasons = [null, "", "   ", "pass", "{not json}", "[]", '{"verdict":"PASS"}', '{"rationale":"x"}'].map(
      (t) => {
        const r = parseJudgeAnswer(t);
        expect(r.ok, String(t)).toBe(false);
        return r.ok ? "" : r.reason;
      },
    );
    expect(reasons[0]).toBe("the judge agent's answer is empty");
    expect(reasons[3]).toBe('the judge agent\'s answer is not JSON: "pass"');
    expect(reasons[4]).toMatch(/^the judge agent's answer is not JSON/);
    expect(reasons[6]).toMatch(/^the judge agent's answer is not a judge answer .*: verdict: /);
    expect(reasons[7]).toMatch(/verdict/);
    const badPoint = parseJudgeAnswer('{"verdict":"pass","points":[{"point":"a","status":"unclear"}]}');
    expect(badPoint.ok ? "" : badPoint.reason).toMatch(/points\.0\.status/);
  });

  it("the answer becomes a judge result with its verdict as given and its points as coverage", () => {
    const result = judgeResultOfAnswer(
      {
        verdict: "pass",
        points: [
          { point: "a", status: "covered" },
          { point: "b", status: "partial" },
          { point: "c", status: "missing" },
        ],
      },
      ref,
    );
    expect(result).toEqual({
      judge: "agent:a1@2",
      verdict: "pass",
      rationale: "the judge agent says pass",
      judgedBy: ref,
      coverage: [
        { point: "a", status: "covered", score: 1, matched: [], missing: [] },
        { point: "b", status: "partial", score: 0.5, matched: [], missing: [] },
        { point: "c", status: "missing", score: 0, matched: [], missing: [] },
      ],
    });
  });

  it("a judge that gave no answer is unknown with the reason, and the suggestion is never a pass", () => {
    const result = unknownJudgeResult(ref, "the judge agent's run failed: RUN_TIMEOUT: too slow", ["a", "b"]);
    expect(result).toMatchObject({
      verdict: "unknown",
      judgedBy: ref,
      error: "the judge agent's run failed: RUN_TIMEOUT: too slow",
      coverage: [
        { point: "a", status: "unclear" },
        { point: "b", status: "unclear" },
      ],
    });
    const suggestion = combineSuggestion(result, [], []);
    expect(suggestion).toMatchObject({
      verdict: "unknown",
      judge: "agent:a1@2",
      judgedBy: ref,
      judgeError: "the judge agent's run failed: RUN_TIMEOUT: too slow",
    });
  });
});
