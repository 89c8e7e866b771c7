import { describe, expect, it } from "vitest";
import { AUDIT_MIN_ITEMS, auditSampleSize, drawAuditSample, mulberry32 } from "./audit-sample";

/**
 * Reference values from an independent Python implementation of the documented algorithm (audit-sample.ts header:
 * mulberry32 with explicit mod-2^32 arithmetic, the partial Fisher-Yates over the sorted ids), written from the
 * description and run on 2026-11-28 with Python 3.11.7:
 *
 *   M = 0xFFFFFFFF
 *   def mulberry32(seed):
 *       a = seed & M
 *       def nxt():
 *           nonlocal a
 *           a = (a + 0x6D2B79F5) & M
 *           t = ((a ^ (a >> 15)) * (a | 1)) & M
 *           t = (((t + (((t ^ (t >> 7)) * (t | 61)) & M)) & M) ^ t) & M
 *           return ((t ^ (t >> 14)) & M) / 4294967296
 *       return nxt
 *   def size(n, rate): return 0 if rate <= 0 or n <= 0 else min(n, max(3, math.ceil(round(rate * n * 1e9) / 1e9)))
 *   def draw(ids, rate, seed):
 *       a = sorted(ids); k = size(len(a), rate); r = mulberry32(seed)
 *       for i in range(k):
 *           j = i + math.floor(r() * (len(a) - i)); a[i], a[j] = a[j], a[i]
 *       return sorted(a[:k])
 */
const IDS = Array.from({ length: 40 }, (_, i) => `item-${String(i).padStart(2, "0")}`);
const DRAWS: Array<[n: number, rate: number, seed: number, sample: string[]]> = [
  [40, 0.1, 42, ["item-18", "item-24", "item-27", "item-34"]],
  [40, 0.1, 7, ["item-00", "item-03", "item-28", "item-39"]],
  [
    40,
    0.25,
    123456789,
    ["item-00", "item-02", "item-04", "item-08", "item-10", "item-14", "item-16", "item-31", "item-32", "item-38"],
  ],
  [2, 0.1, 5, ["item-00", "item-01"]],
  [30, 0.1, 99, ["item-07", "item-17", "item-24"]],
  [10, 0.5, 2147483647, ["item-00", "item-01", "item-02", "item-04", "item-05"]],
];

describe("mulberry32", () => {
  it("gives the reference sequence", () => {
    const r = mulberry32(42);
    const got = [r(), r(), r(), r(), r()];
    expect(got).toEqual([
      0.6011037519201636, 0.44829055899754167, 0.8524657934904099, 0.6697340414393693, 0.17481389874592423,
    ]);
    const top = mulberry32(2147483647);
    expect([top(), top(), top()]).toEqual([0.4290980885270983, 0.12713524978607893, 0.3852774982806295]);
  });
});

describe("auditSampleSize", () => {
  it("is rate of N rounded up, at least 3, all when fewer, 0 at rate 0", () => {
    expect(AUDIT_MIN_ITEMS).toBe(3);
    expect(auditSampleSize(0, 0.1)).toBe(0);
    expect(auditSampleSize(1, 0.1)).toBe(1);
    expect(auditSampleSize(2, 0.1)).toBe(2);
    expect(auditSampleSize(3, 0.1)).toBe(3);
    expect(auditSampleSize(12, 0.1)).toBe(3);
    expect(auditSampleSize(30, 0.1)).toBe(3); // 0.1 * 30 is 3.0000000000000004 in floating point
    expect(auditSampleSize(31, 0.1)).toBe(4);
    expect(auditSampleSize(45, 0.1)).toBe(5);
    expect(auditSampleSize(1000, 0.1)).toBe(100);
    expect(auditSampleSize(10, 1)).toBe(10);
    expect(auditSampleSize(50, 0)).toBe(0);
    expect(auditSampleSize(2, 0)).toBe(0);
  });
});

describe("drawAuditSample", () => {
  it("matches the independent Python implementation", () => {
    for (const [n, rate, seed, sample] of DRAWS) expect(drawAuditSample(IDS.slice(0, n), rate, seed)).toEqual(sample);
  });

  it("does not depend on the order the ids come in, and the same seed draws the same sample", () => {
    const shuffled = [...IDS].reverse();
    expect(drawAuditSample(shuffled, 0.1, 42)).toEqual(drawAuditSample(IDS, 0.1, 42));
    expect(drawAuditSample(IDS, 0.1, 8)).not.toEqual(drawAuditSample(IDS, 0.1, 42));
  });

  it("draws distinct ids of the population, none at rate 0", () => {
    const s = drawAuditSample(IDS, 0.3, 2024);
    expect(new Set(s).size).toBe(12);
    for (const id of s) expect(IDS).toContain(id);
    expect(drawAuditSample(IDS, 0, 1)).toEqual([]);
  });

  it("refuses a seed outside 0 .. 2^31 - 1", () => {
    expect(() => drawAuditSample(IDS, 0.1, -1)).toThrow(RangeError);
    expect(() => drawAuditSample(IDS, 0.1, 2 ** 31)).toThrow(RangeError);
    expect(() => drawAuditSample(IDS, 0.1, 1.5)).toThrow(RangeError);
  });
});
