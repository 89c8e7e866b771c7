import { describe, expect, it } from "vitest";
import { formatP, intervalWords, mcnemarExact, roundedInterval, wilson } from "./statistics";

/**
 * Reference values computed independently on 2026-11-27 with statsmodels 0.15.0 and scipy 1.17.1 (Python 3.11.7;
 * statsmodels installed into a venv from the machine's wheel), by these exact commands:
 *
 *   python3 -c "
 *   from statsmodels.stats.proportion import proportion_confint as pc
 *   for k,n in [(27,30),(0,10),(10,10),(1,1),(0,1),(9000,10000),(3,7),(26,30),(1,2)]:
 *     print(k,n,repr(pc(k,n,method='wilson')))"
 *
 *   python3 -c "
 *   from scipy.stats import binomtest as bt
 *   for k,n in [(1,4),(0,10),(3,4),(200,600),(0,1),(2,9),(5,10),(250,600),(17,50),(1000,2500)]:
 *     print(k,n,repr(bt(k,n,0.5).pvalue))"
 *
 * (binomtest(min(b, c), b + c, 0.5) is the exact two-sided McNemar test of b and c.)
 */
const WILSON: Array<[k: number, n: number, low: number, high: number]> = [
  [27, 30, 0.7437891742081592, 0.9654001112526659],
  [0, 10, 0.0, 0.27753279986288926],
  [10, 10, 0.7224672001371106, 1.0],
  [1, 1, 0.2065493143772374, 1.0],
  [0, 1, 0.0, 0.7934506856227627],
  [9000, 10000, 0.8939656314740893, 0.9057271698293695],
  [3, 7, 0.15821985525146964, 0.7495416354723428],
  [26, 30, 0.703186733179637, 0.9469034451594526],
  [1, 2, 0.09453120573423068, 0.9054687942657693],
];

// [b, c, p]: scipy's binomtest(k, n) with k = one of b, c and n = b + c
const MCNEMAR: Array<[b: number, c: number, p: number]> = [
  [3, 1, 0.625], // binomtest(1, 4): the fixture
  [10, 0, 0.001953125], // binomtest(0, 10): the fixture (p = 0.002)
  [1, 3, 0.625], // binomtest(3, 4): symmetric
  [400, 200, 2.3925776987708593e-16], // binomtest(200, 600)
  [1, 0, 1.0], // binomtest(0, 1)
  [7, 2, 0.1796875], // binomtest(2, 9)
  [5, 5, 1.0], // binomtest(5, 10)
  [250, 350, 5.114064866353935e-5], // binomtest(250, 600)
  [33, 17, 0.032839137564268484], // binomtest(17, 50)
  [1000, 1500, 1.3325871648376767e-23], // binomtest(1000, 2500)
];

describe("Wilson score interval (95 %)", () => {
  it.each(WILSON)("%i of %i matches statsmodels", (k, n, low, high) => {
    const i = wilson(k, n)!;
    expect(i.low).toBeCloseTo(low, 12);
    expect(i.high).toBeCloseTo(high, 12);
  });
  it("has no interval without questions, and refuses impossible counts", () => {
    expect(wilson(0, 0)).toBeNull();
    expect(() => wilson(3, 2)).toThrow(RangeError);
    expect(() => wilson(-1, 2)).toThrow(RangeError);
    expect(() => wilson(1.5, 2)).toThrow(RangeError);
  });
  it("rounds outwards to 4 decimals, and reads as the gate's words", () => {
    expect(roundedInterval(wilson(27, 30))).toEqual({ low: 0.7437, high: 0.9655 });
    expect(roundedInterval(wilson(10, 10))).toEqual({ low: 0.7224, high: 1 });
    expect(intervalWords(wilson(27, 30))).toBe("95 % interval 74-97 %");
    expect(intervalWords(null)).toBe("no interval (nothing judged)");
  });
});

describe("exact McNemar test (two-sided binomial, p = 0.5)", () => {
  it.each(MCNEMAR)("b=%i, c=%i matches scipy's binomtest", (b, c, p) => {
    const got = mcnemarExact(b, c);
    expect(Math.abs(got - p) / p).toBeLessThan(1e-9);
  });
  it("is 1 without discordant questions, and refuses impossible counts", () => {
    expect(mcnemarExact(0, 0)).toBe(1);
    expect(() => mcnemarExact(-1, 2)).toThrow(RangeError);
    expect(() => mcnemarExact(0.5, 2)).toThrow(RangeError);
  });
  it("holds the issue's fixtures exactly", () => {
    expect(mcnemarExact(3, 1)).toBe(0.625);
    expect(mcnemarExact(10, 0)).toBe(0.001953125);
    expect(formatP(0.625)).toBe("p = 0.63");
    expect(formatP(0.001953125)).toBe("p = 0.002");
    expect(formatP(1)).toBe("p = 1");
    expect(formatP(1e-9)).toBe("p < 0.001");
  });
});
