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

// ---------------------------------------------------------------- agreement between people (several reviewers per item)

/**
 * Agreement between the people who reviewed the items of a run with several reviewers per item (pure). Each item is
 * the list of its reviewers' verdicts in the order they were given; only items with exactly `raters` reviews, all
 * typed by people, count (an adopted suggestion is the machine, not a person). percent = items on which every
 * reviewer agreed / n x 100. kappa: Cohen's for two reviewers (the first review of each item against the second:
 * p_o and p_e = the product of the two positions' category shares, summed), Fleiss' for three (P-bar = mean over items
 * of (sum_j n_ij^2 - m) / (m (m - 1)), P_e = sum_j p_j^2). No items: percent and kappa null; P_e = 1 (one category
 * for every review): kappa null, as for the machine's agreement above.
 */
export type ReviewerAgreement = {
  raters: number;
  n: number;
  percent: number | null;
  kappa: number | null;
  method: "cohen" | "fleiss";
};

export function cohensKappa(pairs: Array<[Binary, Binary]>): number | null {
  const n = pairs.length;
  if (!n) return null;
  const po = pairs.filter(([a, b]) => a === b).length / n;
  const aPass = pairs.filter(([a]) => a === "pass").length / n;
  const bPass = pairs.filter(([, b]) => b === "pass").length / n;
  const pe = aPass * bPass + (1 - aPass) * (1 - bPass);
  if (Math.abs(1 - pe) < 1e-12) return null;
  return (po - pe) / (1 - pe);
}

export function fleissKappa(items: Binary[][]): number | null {
  const N = items.length;
  if (!N) return null;
  const m = items[0]!.length;
  if (m < 2 || items.some((i) => i.length !== m))
    throw new Error("Fleiss' kappa needs the same number (2+) of ratings per item");
  let pBar = 0;
  let passTotal = 0;
  for (const ratings of items) {
    const pass = ratings.filter((r) => r === "pass").length;
    const fail = m - pass;
    passTotal += pass;
    pBar += (pass * pass + fail * fail - m) / (m * (m - 1));
  }
  pBar /= N;
  const pPass = passTotal / (N * m);
  const pe = pPass * pPass + (1 - pPass) * (1 - pPass);
  if (Math.abs(1 - pe) < 1e-12) return null;
  return (pBar - pe) / (1 - pe);
}

export function reviewerAgreement(items: Binary[][], raters: number): ReviewerAgreement {
  const counted = items.filter((i) => i.length === raters);
  const n = counted.length;
  const unanimous = counted.filter((i) => i.every((v) => v === i[0])).length;
  const kappa =
    raters === 2 ? cohensKappa(counted.map((i) => [i[0]!, i[1]!] as [Binary, Binary])) : fleissKappa(counted);
  return {
    raters,
    n,
    percent: n ? Math.round((unanimous / n) * 1000) / 10 : null,
    kappa: kappa === null ? null : round(kappa),
    method: raters === 2 ? "cohen" : "fleiss",
  };
}
