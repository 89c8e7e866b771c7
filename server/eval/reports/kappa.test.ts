import { describe, expect, it } from "vitest";
import { agreement, cohensKappa, fleissKappa, reviewerAgreement } from "./kappa";

describe("Cohen's kappa", () => {
  const P = "pass" as const;
  const F = "fail" as const;
  it("raw agreement and kappa", () => {
    const a = agreement([
      { machine: P, human: P },
      { machine: P, human: P },
      { machine: F, human: F },
      { machine: P, human: F },
    ]);
    expect(a.rawAgreement).toBe(0.75);
    // p_e = 0.75*0.5 + 0.25*0.5 = 0.5 -> kappa = (0.75-0.5)/0.5
    expect(a.kappa).toBe(0.5);
    expect(
      agreement([
        { machine: P, human: F },
        { machine: F, human: P },
      ]).kappa,
    ).toBe(-1);
  });
  it("edge cases: no pairs, no variance", () => {
    expect(agreement([])).toMatchObject({ pairs: 0, rawAgreement: null, kappa: null });
    const same = agreement([
      { machine: P, human: P },
      { machine: P, human: P },
    ]);
    expect(same).toMatchObject({ rawAgreement: 1, kappa: null });
    expect(same.note).toMatch(/no variance/);
    // one rater constant, the other not: defined (p_e < 1), kappa 0
    expect(
      agreement([
        { machine: P, human: P },
        { machine: P, human: F },
      ]).kappa,
    ).toBe(0);
  });
});

describe("agreement between reviewers (issue 23)", () => {
  const seq = (s: string) => [...s].map((c) => (c === "P" ? "pass" : "fail") as "pass" | "fail");
  // Reference values computed independently with Python statsmodels 0.14:
  //   cohens_kappa(to_table(np.array([A, B]).T)[0]).kappa and
  //   fleiss_kappa(aggregate_raters(data)[0], method="fleiss") (statsmodels.stats.inter_rater)
  it("Cohen's kappa for two reviewers matches statsmodels", () => {
    const a = seq("PPFPFFPPPFPP");
    const b = seq("PFFPFPPPFFPP");
    expect(cohensKappa(a.map((x, i) => [x, b[i]!]))).toBeCloseTo(0.47058823529411764, 12);
    const r = reviewerAgreement(
      a.map((x, i) => [x, b[i]!]),
      2,
    );
    expect(r).toEqual({ raters: 2, n: 12, percent: 75, kappa: 0.4706, method: "cohen" });
    // the four questions of the integration test (tests/integration/eval-reviewers.test.ts): statsmodels 0.5
    expect(reviewerAgreement([seq("PP"), seq("PF"), seq("FF"), seq("PP")], 2)).toMatchObject({
      percent: 75,
      kappa: 0.5,
    });
  });
  it("Fleiss' kappa for three reviewers matches statsmodels", () => {
    const items = ["PPP", "PPF", "FFF", "PFF", "PPP", "FFP", "PPP", "PPF", "FFF", "PPP"].map(seq);
    expect(fleissKappa(items)).toBeCloseTo(0.4444444444444443, 12);
    expect(reviewerAgreement(items, 3)).toEqual({ raters: 3, n: 10, percent: 60, kappa: 0.4444, method: "fleiss" });
    // statsmodels: -2.5e-16, i.e. 0
    expect(fleissKappa(["PPF", "PFF", "FFF"].map(seq))).toBeCloseTo(0, 12);
  });
  it("edge cases: no items, no variance, items with fewer reviews left out", () => {
    expect(reviewerAgreement([], 2)).toEqual({ raters: 2, n: 0, percent: null, kappa: null, method: "cohen" });
    expect(reviewerAgreement([seq("PP"), seq("PP")], 2)).toMatchObject({ n: 2, percent: 100, kappa: null });
    expect(reviewerAgreement([seq("PPP"), seq("FFF"), seq("PP")], 3)).toMatchObject({ n: 2, percent: 100, kappa: 1 });
    expect(() => fleissKappa([seq("PP"), seq("PPP")])).toThrow();
  });
});
