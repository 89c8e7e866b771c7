import { describe, expect, it } from "vitest";
import { type Binary, type Verdict3, figuresOf } from "./calibration";
import { agreementDrop, judgeSwitchFigures } from "./judge-switch";

const rep = <T>(n: number, x: T): T[] => Array.from({ length: n }, () => x);
const table = (pp: number, pf: number, fp: number, ff: number) =>
  figuresOf([
    ...rep(pp, { judge: "pass" as Verdict3, human: "pass" as Binary }),
    ...rep(pf, { judge: "pass" as Verdict3, human: "fail" as Binary }),
    ...rep(fp, { judge: "fail" as Verdict3, human: "pass" as Binary }),
    ...rep(ff, { judge: "fail" as Verdict3, human: "fail" as Binary }),
  ]);

// kappas (python3 statsmodels 0.15.0, cohens_kappa on the 2x2 table, judge first):
// [[10, 2], [2, 10]] -> 0.6667; [[11, 6], [1, 6]] -> 0.4167
describe("a judge switch's decision", () => {
  it("refuses a drop of kappa or fail recall by more than 0.05 when both judges have 20 items", () => {
    const python = table(10, 2, 2, 10);
    const builtin = table(11, 6, 1, 6);
    expect(judgeSwitchFigures("py", python, "builtin", builtin)).toEqual({
      current: { key: "py", n: 24, pairs: 24, kappa: 0.6667, failRecall: 0.8333 },
      candidate: { key: "builtin", n: 24, pairs: 24, kappa: 0.4167, failRecall: 0.5 },
      enough: true,
      drops: ["kappa", "failRecall"],
    });
    // the other way round is an improvement
    expect(judgeSwitchFigures("builtin", builtin, "py", python)?.drops).toEqual([]);
    // exactly 0.05 lower is not "more than 0.05"
    const a = table(10, 0, 0, 10); // recall 1
    const b = table(10, 1, 0, 19); // recall 0.95
    expect(judgeSwitchFigures("a", a, "b", b)?.drops).not.toContain("failRecall");
  });

  it("fewer than 20 items: figures, nothing refused; a candidate without suggestions: not compared", () => {
    const few = judgeSwitchFigures("a", table(5, 0, 0, 5), "b", table(0, 5, 5, 0));
    expect(few).toMatchObject({ enough: false, drops: [] });
    expect(judgeSwitchFigures("a", table(10, 2, 2, 10), "b", figuresOf([]))).toBeNull();
  });

  it("a candidate that answers only unknown (no pairs, no kappa, no recall) is a drop, not 'nothing to compare'", () => {
    const current = table(10, 2, 2, 10);
    const unknowns = figuresOf(rep(24, { judge: "unknown" as Verdict3, human: "pass" as Binary }));
    expect(unknowns).toMatchObject({ n: 24, pairs: 0, kappa: { value: null }, failRecall: { value: null } });
    const figures = judgeSwitchFigures("llm", current, "agent:j@1", unknowns);
    expect(figures).toMatchObject({ enough: true, drops: ["kappa", "failRecall"] });
    // a perfect candidate whose kappa is undefined only because everyone said pass is no drop: as many pairs
    const allPass = table(24, 0, 0, 0);
    expect(judgeSwitchFigures("a", table(20, 0, 4, 0), "b", allPass)?.drops).toEqual([]);
  });

  it("the refusal names both judges by their labels and says 'none' for a figure the candidate lacks", () => {
    const figures = judgeSwitchFigures(
      "llm",
      table(10, 2, 2, 10),
      "agent:j@1",
      figuresOf(rep(24, { judge: "unknown" as Verdict3, human: "fail" as Binary })),
    )!;
    const e = agreementDrop(figures, { current: "LLM judge", candidate: "Rubric judge v1" });
    expect(e.status).toBe(409);
    expect(e.message).toBe(
      "Rubric judge v1 agrees less with people than LLM judge on this set's human-typed verdicts (kappa none vs 0.6667, fail recall none vs 0.8333); send force: true with a reason to switch anyway",
    );
    expect(e.message).not.toContain("agent:j@1");
  });
});
