/**
 * Agreement between machine suggestions and human verdicts (pure). Pairs are items with a pass/fail suggestion
 * AND a human-typed verdict (unknown suggestions and adopted verdicts are left out: an adopted verdict agrees
 * with its suggestion by construction).
 *
 * raw agreement p_o = agreeing pairs / pairs. Cohen's kappa = (p_o - p_e) / (1 - p_e), p_e = sum over
 * categories of (machine share x human share). Edge cases: no pairs -> both null; p_e = 1 (both raters used one
 * and the same category for every item: no variance) -> kappa null with a note, raw agreement 1.
 */
export type Binary = "pass" | "fail";
export type Agreement = {
  pairs: number;
  agreed: number;
  rawAgreement: number | null;
  expectedAgreement: number | null;
  kappa: number | null;
  matrix: {
    machinePass_humanPass: number;
    machinePass_humanFail: number;
    machineFail_humanPass: number;
    machineFail_humanFail: number;
  };
  note: string | null;
};

const round = (x: number) => Math.round(x * 10000) / 10000;

export function agreement(pairs: Array<{ machine: Binary; human: Binary }>): Agreement {
  const m = { machinePass_humanPass: 0, machinePass_humanFail: 0, machineFail_humanPass: 0, machineFail_humanFail: 0 };
  for (const p of pairs) {
    if (p.machine === "pass") p.human === "pass" ? m.machinePass_humanPass++ : m.machinePass_humanFail++;
    else p.human === "pass" ? m.machineFail_humanPass++ : m.machineFail_humanFail++;
  }
  const n = pairs.length;
  if (n === 0)
    return {
      pairs: 0,
      agreed: 0,
      rawAgreement: null,
      expectedAgreement: null,
      kappa: null,
      matrix: m,
      note: "no items with both a pass/fail suggestion and a human-typed verdict",
    };
  const agreed = m.machinePass_humanPass + m.machineFail_humanFail;
  const po = agreed / n;
  const machinePass = (m.machinePass_humanPass + m.machinePass_humanFail) / n;
  const humanPass = (m.machinePass_humanPass + m.machineFail_humanPass) / n;
  const pe = machinePass * humanPass + (1 - machinePass) * (1 - humanPass);
  if (Math.abs(1 - pe) < 1e-12) {
    return {
      pairs: n,
      agreed,
      rawAgreement: round(po),
      expectedAgreement: 1,
      kappa: null,
      matrix: m,
      note: "no variance: machine and humans used one and the same category for every item, so kappa is undefined",
    };
  }
  return {
    pairs: n,
    agreed,
    rawAgreement: round(po),
    expectedAgreement: round(pe),
    kappa: round((po - pe) / (1 - pe)),
    matrix: m,
    note: null,
  };
}
