/**
 * How far to trust a judge (pure): its suggestions against people's **human-typed** verdicts (adopted verdicts are
 * left out by the caller: an adopted verdict is the judge agreeing with itself).
 *
 * Over the items a judge suggested on (`n`, unknown suggestions included): `unknownRate` = unknown / n; the 2x2
 * `matrix` over its pass/fail suggestions, judge first (`passFail` = the judge said pass, the person fail);
 * `agreement` = (passPass + failFail) / pairs; Cohen's `kappa` = (p_o - p_e) / (1 - p_e) over the pairs (null without
 * pairs or without variance, as `kappa.ts`); `failPrecision` = failFail / the judge's fails (how often a judge's fail
 * is a real fail); `failRecall` = failFail / the people's fails among the pairs (how many real fails it catches).
 * Every figure is `{ value, count, of }`: value = count / of (kappa: count = agreeing pairs, of = pairs), value null
 * when `of` is 0. Values are rounded to 4 decimals. Fewer than `MIN_CALIBRATION_ITEMS` items: the figures with
 * `note` = TOO_FEW_VERDICTS.
 */
import { agreement as cohen } from "./kappa";

export const MIN_CALIBRATION_ITEMS = 20;
export const TOO_FEW_VERDICTS = "too few verdicts to judge the judge";
export const NO_HUMAN_VERDICTS = "no human-typed verdicts on this set's runs yet: too few verdicts to judge the judge";

export type Verdict3 = "pass" | "fail" | "unknown";
export type Binary = "pass" | "fail";

/** One human-typed item: the person's verdict and every judge's suggestion on it, keyed by judge key. */
export type CalibrationItem = {
  itemId: string;
  runId: string;
  key: string;
  scenario: string;
  attribution: string | null;
  human: Binary;
  suggestions: Record<string, Verdict3>;
};

export type Figure = { value: number | null; count: number; of: number };
export type Matrix = { passPass: number; passFail: number; failPass: number; failFail: number };
export type Figures = {
  n: number;
  pairs: number;
  matrix: Matrix;
  agreement: Figure;
  kappa: Figure;
  failPrecision: Figure;
  failRecall: Figure;
  unknownRate: Figure;
  note: string | null;
};

const round = (x: number) => Math.round(x * 10000) / 10000;
const figure = (count: number, of: number): Figure => ({ value: of ? round(count / of) : null, count, of });

/** The figures of one judge over items (pairs of its suggestion and the human verdict). */
export function figuresOf(pairs: Array<{ judge: Verdict3; human: Binary }>): Figures {
  const matrix: Matrix = { passPass: 0, passFail: 0, failPass: 0, failFail: 0 };
  let unknown = 0;
  const binary: Array<{ machine: Binary; human: Binary }> = [];
  for (const p of pairs) {
    if (p.judge === "unknown") {
      unknown++;
      continue;
    }
    binary.push({ machine: p.judge, human: p.human });
    if (p.judge === "pass") p.human === "pass" ? matrix.passPass++ : matrix.passFail++;
    else p.human === "pass" ? matrix.failPass++ : matrix.failFail++;
  }
  const k = cohen(binary);
  const agreed = matrix.passPass + matrix.failFail;
  return {
    n: pairs.length,
    pairs: binary.length,
    matrix,
    agreement: figure(agreed, binary.length),
    kappa: { value: k.kappa, count: agreed, of: binary.length },
    failPrecision: figure(matrix.failFail, matrix.failPass + matrix.failFail),
    failRecall: figure(matrix.failFail, matrix.passFail + matrix.failFail),
    unknownRate: figure(unknown, pairs.length),
    note:
      pairs.length === 0
        ? NO_HUMAN_VERDICTS
        : pairs.length < MIN_CALIBRATION_ITEMS
          ? TOO_FEW_VERDICTS
          : (k.note ?? null),
  };
}

const pairsFor = (items: CalibrationItem[], judge: string) =>
  items.flatMap((i) => {
    const v = i.suggestions[judge];
    return v ? [{ judge: v, human: i.human }] : [];
  });

function grouped(items: CalibrationItem[], judge: string, by: (i: CalibrationItem) => string | null) {
  const groups = new Map<string, CalibrationItem[]>();
  for (const i of items) {
    const g = by(i);
    if (g === null) continue;
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g)!.push(i);
  }
  return [...groups]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, list]) => ({ name, ...figuresOf(pairsFor(list, judge)) }));
}

export type Disagreement = {
  itemId: string;
  runId: string;
  key: string;
  human: Binary;
  verdicts: Record<string, Verdict3>;
};

/**
 * A judge's calibration over the human-typed items: its figures, by scenario (the sample's classification), by
 * attribution of the human fails, every judge with suggestions there side by side (ordered as `judgeOrder`, then by
 * key), and the items where two judges disagree (one says pass, another fail), at most `maxDisagreements`.
 */
export function calibrate(items: CalibrationItem[], judge: string, judgeOrder: string[] = [], maxDisagreements = 200) {
  const keys = new Set<string>();
  for (const i of items) for (const k of Object.keys(i.suggestions)) keys.add(k);
  const rank = (k: string) => {
    const at = judgeOrder.indexOf(k);
    return at < 0 ? judgeOrder.length : at;
  };
  const judges = [...keys].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const disagreements: Disagreement[] = [];
  let disagreementsTotal = 0;
  for (const i of items) {
    const vs = Object.values(i.suggestions);
    if (vs.includes("pass") && vs.includes("fail")) {
      disagreementsTotal++;
      if (disagreements.length < maxDisagreements)
        disagreements.push({ itemId: i.itemId, runId: i.runId, key: i.key, human: i.human, verdicts: i.suggestions });
    }
  }
  return {
    humanTyped: items.length,
    ...figuresOf(pairsFor(items, judge)),
    byScenario: grouped(items, judge, (i) => i.scenario || "(none)"),
    byAttribution: grouped(items, judge, (i) => (i.human === "fail" ? (i.attribution ?? "(none)") : null)),
    judges: judges.map((key) => ({ key, ...figuresOf(pairsFor(items, key)) })),
    disagreements,
    disagreementsTotal,
  };
}
