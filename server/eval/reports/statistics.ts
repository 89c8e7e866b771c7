/**
 * The two statistics the reports give their numbers with (pure, no dependency):
 *  - `wilson`: the 95 % Wilson score interval of a pass rate k / n (closed formula);
 *  - `mcnemarExact`: the exact two-sided McNemar test of two runs on the same questions, i.e. the two-sided
 *    binomial test of b (A pass / B fail) against c (A fail / B pass) with p = 0.5:
 *    p = min(1, 2 * P(X <= min(b, c))), X ~ Binomial(b + c, 0.5); p = 1 when b + c = 0.
 * Checked against statsmodels' `proportion_confint(method="wilson")` and scipy's `binomtest` (statistics.test.ts).
 */

/** The standard normal quantile of 0.975 (scipy.stats.norm.ppf(0.975)): a 95 % two-sided interval. */
const Z95 = 1.959963984540054;

export type Interval = { low: number; high: number };

/**
 * The 95 % Wilson score interval of k successes in n trials, as fractions; null when n is 0 (no rate, no interval).
 * Exact ends: low is 0 when k = 0 and high is 1 when k = n (the formula gives them up to rounding).
 */
export function wilson(k: number, n: number): Interval | null {
  if (!Number.isInteger(k) || !Number.isInteger(n) || k < 0 || n < 0 || k > n) {
    throw new RangeError(`wilson: need integers 0 <= k <= n, got k=${k}, n=${n}`);
  }
  if (n === 0) return null;
  const z2 = Z95 * Z95;
  const p = k / n;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (Z95 / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return {
    low: k === 0 ? 0 : Math.max(0, centre - half),
    high: k === n ? 1 : Math.min(1, centre + half),
  };
}

/** An interval rounded to 4 decimals, like the rates it stands beside (outwards, so it never gets narrower). */
export function roundedInterval(i: Interval | null): Interval | null {
  if (!i) return null;
  return { low: Math.floor(i.low * 10000) / 10000, high: Math.ceil(i.high * 10000) / 10000 };
}

/** ln(a + b) from ln a and ln b, without leaving log space. */
function logAdd(la: number, lb: number): number {
  if (la === Number.NEGATIVE_INFINITY) return lb;
  if (lb === Number.NEGATIVE_INFINITY) return la;
  const hi = Math.max(la, lb);
  return hi + Math.log1p(Math.exp(Math.min(la, lb) - hi));
}

/** ln P(X <= k) for X ~ Binomial(n, 0.5): the terms C(n, i) / 2^n summed in log space (n up to many thousands). */
function logLowerTailHalf(k: number, n: number): number {
  let term = -n * Math.LN2; // ln P(X = 0)
  let total = term;
  for (let i = 0; i < k; i++) {
    term += Math.log((n - i) / (i + 1)); // ln P(X = i + 1) from ln P(X = i)
    total = logAdd(total, term);
  }
  return total;
}

/** The exact two-sided McNemar p-value from the discordant counts b and c (see the top of the file). */
export function mcnemarExact(b: number, c: number): number {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) {
    throw new RangeError(`mcnemarExact: need non-negative integers, got b=${b}, c=${c}`);
  }
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  if (2 * k >= n) return 1; // b = c: the lower tail holds half or more of the mass
  return Math.min(1, 2 * Math.exp(logLowerTailHalf(k, n)));
}

/** The significance level the paired sentence uses. */
export const SIGNIFICANCE = 0.05;

/** A p-value for people: 2 decimals, 3 below 0.01, "< 0.001" below that, "1" for 1. */
export function formatP(p: number): string {
  if (p >= 1) return "p = 1";
  if (p < 0.001) return "p < 0.001";
  return `p = ${p < 0.01 ? p.toFixed(3) : p.toFixed(2)}`;
}

/** A fraction as a whole percent (0.7438 -> "74"). */
export const percent = (x: number) => String(Math.round(x * 100));

/** "95 % interval 74-97 %" (or that there is none: nothing counted). */
export function intervalWords(i: Interval | null): string {
  return i ? `95 % interval ${percent(i.low)}-${percent(i.high)} %` : "no interval (nothing judged)";
}
