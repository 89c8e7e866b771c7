import { describe, expect, it } from "vitest";
import { samplePoint, sampled } from "./sampler";

/**
 * The online judging sampler: deterministic per trace, and at rate 0.1 over 10,000 decisions 1,000 +- 95 are sampled.
 * Reference: for independent decisions the count is Binomial(10,000, 0.1) (mean 1,000, sd 30); scipy.stats.binom gives
 * P(905 <= X <= 1095) = 0.99854 (binom.cdf(1095, 10000, 0.1) - binom.cdf(904, 10000, 0.1)), so +-95 is a 3.2 sd bound
 * that a uniform hash keeps; the mean over 10 seeds (sd 30 / sqrt(10) = 9.5) stays within 1,000 +- 28 (3 sd).
 */
const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i.toString(36)}`);

describe("online judging sampler", () => {
  it("at rate 0.1, 10,000 decisions sample 1,000 +- 95 (trace ids in the cuid shape and plain ones)", () => {
    const cuids = ids("cmi3x2k0q0000", 10_000);
    const count = cuids.filter((id) => sampled(id, 0.1)).length;
    expect(count).toBeGreaterThanOrEqual(905);
    expect(count).toBeLessThanOrEqual(1095);
    const plain = ids("trace-", 10_000).filter((id) => sampled(id, 0.1)).length;
    expect(Math.abs(plain - 1000)).toBeLessThanOrEqual(95);
  });

  it("over 10 seeds every count is within the bound and their mean within 1,000 +- 28", () => {
    const traces = ids("t", 10_000);
    const counts = Array.from({ length: 10 }, (_, s) => traces.filter((id) => sampled(id, 0.1, `seed-${s}`)).length);
    for (const c of counts) expect(Math.abs(c - 1000)).toBeLessThanOrEqual(95);
    const mean = counts.reduce((a, b) => a + b, 0) / counts.length;
    expect(Math.abs(mean - 1000)).toBeLessThanOrEqual(28);
  });

  it("is deterministic per trace, monotone in the rate, and 0 / 1 sample nothing / everything", () => {
    const traces = ids("x", 2000);
    expect(traces.map((id) => sampled(id, 0.3))).toEqual(traces.map((id) => sampled(id, 0.3)));
    for (const id of traces) if (sampled(id, 0.2)) expect(sampled(id, 0.5)).toBe(true);
    expect(traces.filter((id) => sampled(id, 0)).length).toBe(0);
    expect(traces.filter((id) => sampled(id, 1)).length).toBe(2000);
    for (const id of traces.slice(0, 100)) {
      expect(samplePoint(id)).toBeGreaterThanOrEqual(0);
      expect(samplePoint(id)).toBeLessThan(1);
    }
  });
});
