import { describe, expect, it } from "vitest";
import { agreement } from "./kappa";

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
