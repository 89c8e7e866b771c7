import { createHash } from "node:crypto";

/**
 * Which online answers the judging rule samples: deterministic, so every instance, every retry and a test decide the
 * same. An answer is sampled when the first 32 bits of SHA-256(`seed:traceId`), read as a fraction of 2^32, fall below
 * the rate. Trace ids are cuids (time, counter and randomness), whose hashes are uniform, so the share sampled is
 * the rate with binomial spread (sampler.test.ts). Pure.
 */
export function samplePoint(traceId: string, seed = "online-judging"): number {
  return createHash("sha256").update(`${seed}:${traceId}`).digest().readUInt32BE(0) / 2 ** 32;
}

export function sampled(traceId: string, rate: number, seed?: string): boolean {
  if (rate <= 0) return false;
  if (rate >= 1) return true;
  return samplePoint(traceId, seed) < rate;
}
