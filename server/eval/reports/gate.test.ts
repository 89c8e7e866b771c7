import { describe, expect, it } from "vitest";
import { evaluateGate, type GateInput } from "./gate";

describe("the gate rule", () => {
  const gate = (pass: number, fail: number, unjudged: number, over: Partial<GateInput> = {}) =>
    evaluateGate({
      runId: "r",
      shortId: "R-TEST1",
      runStatus: "awaiting_review",
      setKind: "golden",
      threshold: 26,
      questions: [
        ...Array.from({ length: pass }, (_, i) => ({ key: `p${i}`, verdict: "pass" as const })),
        ...Array.from({ length: fail }, (_, i) => ({ key: `f${i}`, verdict: "fail" as const })),
        ...Array.from({ length: unjudged }, (_, i) => ({ key: `u${i}`, verdict: null })),
      ],
      ...over,
    });
  it("25/30 fails, 26/30 passes, 26/30 with one unjudged fails", () => {
    expect(gate(25, 5, 0).passed).toBe(false);
    expect(gate(25, 5, 0).reasons.map((r) => r.code)).toEqual(["GATE_BELOW_THRESHOLD"]);
    expect(gate(26, 4, 0).passed).toBe(true);
    const oneOpen = gate(26, 3, 1);
    expect(oneOpen.passed).toBe(false);
    expect(oneOpen.reasons.map((r) => r.code)).toEqual(["GATE_UNJUDGED"]);
    expect(oneOpen.unjudged).toEqual(["u0"]);
  });
  it("24 of 28 for the generic golden flow", () => {
    expect(gate(24, 4, 0, { threshold: 24 }).passed).toBe(true);
    expect(gate(23, 5, 0, { threshold: 24 }).passed).toBe(false);
  });
  it("a regression pool run can never pass; unfinished runs and impossible thresholds fail", () => {
    expect(gate(30, 0, 0, { setKind: "regression_pool" }).reasons.map((r) => r.code)).toEqual(["GATE_TRACK_B"]);
    expect(gate(30, 0, 0, { runStatus: "answering" }).passed).toBe(false);
    expect(gate(30, 0, 0, { runStatus: "cancelled" }).passed).toBe(false);
    expect(gate(2, 0, 0, { threshold: 3 }).reasons.map((r) => r.code)).toEqual(["GATE_THRESHOLD_UNREACHABLE"]);
    expect(gate(0, 0, 0, { threshold: 0 }).reasons.map((r) => r.code)).toEqual(["GATE_NO_QUESTIONS"]);
  });
});
