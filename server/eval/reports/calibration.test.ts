import { describe, expect, it } from "vitest";
import {
  type Binary,
  type CalibrationItem,
  NO_HUMAN_VERDICTS,
  TOO_FEW_VERDICTS,
  type Verdict3,
  calibrate,
  figuresOf,
} from "./calibration";

/**
 * Reference kappas computed independently with python3 statsmodels 0.15.0,
 * `statsmodels.stats.inter_rater.cohens_kappa(table)` on the 2x2 table (rows: the judge pass/fail, columns: the
 * person pass/fail):
 *   cohens_kappa([[40, 5], [10, 25]]).kappa = 0.6129032258064516
 *   cohens_kappa([[12, 3], [2, 8]]).kappa   = 0.5901639344262296
 *   cohens_kappa([[9, 1], [4, 6]]).kappa    = 0.5
 *   cohens_kappa([[3, 2], [0, 0]]).kappa    = 0.0
 */
const KAPPA_A = 0.6129032258064516;
const KAPPA_B = 0.5901639344262296;

const rep = <T>(n: number, x: T): T[] => Array.from({ length: n }, () => x);
/** Pairs from a 2x2 table, judge first, plus unknown suggestions (on human passes and fails). */
function table(pp: number, pf: number, fp: number, ff: number, unknown = 0) {
  return [
    ...rep(pp, { judge: "pass" as Verdict3, human: "pass" as Binary }),
    ...rep(pf, { judge: "pass" as Verdict3, human: "fail" as Binary }),
    ...rep(fp, { judge: "fail" as Verdict3, human: "pass" as Binary }),
    ...rep(ff, { judge: "fail" as Verdict3, human: "fail" as Binary }),
    ...rep(unknown, { judge: "unknown" as Verdict3, human: (unknown % 2 ? "pass" : "fail") as Binary }),
  ];
}

describe("judge calibration", () => {
  it("the matrix, agreement, kappa (statsmodels), fail precision and recall, the unknown rate, with counts", () => {
    const f = figuresOf(table(40, 5, 10, 25, 6));
    expect(f.n).toBe(86);
    expect(f.pairs).toBe(80);
    expect(f.matrix).toEqual({ passPass: 40, passFail: 5, failPass: 10, failFail: 25 });
    expect(f.agreement).toEqual({ value: 0.8125, count: 65, of: 80 });
    expect(f.kappa.value).toBeCloseTo(KAPPA_A, 4);
    expect(f.kappa).toMatchObject({ count: 65, of: 80 });
    // the judge's fails: 35, of which 25 are real; the people's fails among the pairs: 30, of which 25 caught
    expect(f.failPrecision).toEqual({ value: 0.7143, count: 25, of: 35 });
    expect(f.failRecall).toEqual({ value: 0.8333, count: 25, of: 30 });
    expect(f.unknownRate).toEqual({ value: 0.0698, count: 6, of: 86 });
    expect(f.note).toBeNull();

    const b = figuresOf(table(12, 3, 2, 8));
    expect(b.kappa.value).toBeCloseTo(KAPPA_B, 4);
    expect(b.note).toBeNull();
    // 20 items are enough, 19 are not
    expect(figuresOf(table(9, 1, 4, 6))).toMatchObject({ n: 20, kappa: { value: 0.5 }, note: null });
    expect(figuresOf(table(9, 1, 4, 5)).note).toBe(TOO_FEW_VERDICTS);
    expect(figuresOf(table(3, 2, 0, 0)).kappa.value).toBe(0);
  });

  it("no items, no pairs, no variance: zero counts and null values, never a throw", () => {
    const none = figuresOf([]);
    expect(none).toMatchObject({
      n: 0,
      pairs: 0,
      matrix: { passPass: 0, passFail: 0, failPass: 0, failFail: 0 },
      agreement: { value: null, count: 0, of: 0 },
      kappa: { value: null, count: 0, of: 0 },
      failPrecision: { value: null, count: 0, of: 0 },
      failRecall: { value: null, count: 0, of: 0 },
      unknownRate: { value: null, count: 0, of: 0 },
      note: NO_HUMAN_VERDICTS,
    });
    const unknownOnly = figuresOf(table(0, 0, 0, 0, 3));
    expect(unknownOnly).toMatchObject({ n: 3, pairs: 0, unknownRate: { value: 1, count: 3, of: 3 } });
    expect(unknownOnly.kappa.value).toBeNull();
    // one category for every item on both sides: kappa undefined, agreement 1
    const same = figuresOf(table(25, 0, 0, 0));
    expect(same.kappa.value).toBeNull();
    expect(same.agreement.value).toBe(1);
    expect(same.note).toContain("no variance");
  });

  it("by scenario, by attribution of the human fails, judges side by side, their disagreements", () => {
    const items: CalibrationItem[] = [];
    let n = 0;
    const add = (
      scenario: string,
      human: Binary,
      suggestions: Record<string, Verdict3>,
      attribution: string | null = null,
    ) => items.push({ itemId: `i${++n}`, runId: "r1", key: `q${n}`, scenario, attribution, human, suggestions });
    add("breakfast", "pass", { builtin: "pass", llm: "pass" });
    add("breakfast", "fail", { builtin: "fail", llm: "pass" }, "retrieval");
    add("price", "fail", { builtin: "pass", llm: "fail" }, "prompt");
    add("price", "pass", { builtin: "unknown" });
    add("", "fail", { llm: "fail" });
    const c = calibrate(items, "builtin", ["builtin"]);
    expect(c).toMatchObject({ humanTyped: 5, n: 4, pairs: 3, note: TOO_FEW_VERDICTS });
    expect(c.matrix).toEqual({ passPass: 1, passFail: 1, failPass: 0, failFail: 1 });
    expect(c.byScenario.map((s) => [s.name, s.n, s.matrix])).toEqual([
      ["(none)", 0, { passPass: 0, passFail: 0, failPass: 0, failFail: 0 }],
      ["breakfast", 2, { passPass: 1, passFail: 0, failPass: 0, failFail: 1 }],
      ["price", 2, { passPass: 0, passFail: 1, failPass: 0, failFail: 0 }],
    ]);
    expect(c.byAttribution.map((a) => [a.name, a.n, a.failRecall])).toEqual([
      ["(none)", 0, { value: null, count: 0, of: 0 }],
      ["prompt", 1, { value: 0, count: 0, of: 1 }],
      ["retrieval", 1, { value: 1, count: 1, of: 1 }],
    ]);
    expect(c.judges.map((j) => [j.key, j.n, j.matrix])).toEqual([
      ["builtin", 4, { passPass: 1, passFail: 1, failPass: 0, failFail: 1 }],
      ["llm", 4, { passPass: 1, passFail: 1, failPass: 0, failFail: 2 }],
    ]);
    expect(c.disagreementsTotal).toBe(2);
    expect(c.disagreements.map((d) => [d.key, d.verdicts])).toEqual([
      ["q2", { builtin: "fail", llm: "pass" }],
      ["q3", { builtin: "pass", llm: "fail" }],
    ]);
    expect(calibrate(items, "builtin", [], 1).disagreements).toHaveLength(1);
    const empty = calibrate([], "llm");
    expect(empty).toMatchObject({ humanTyped: 0, n: 0, judges: [], byScenario: [], note: NO_HUMAN_VERDICTS });
  });
});
