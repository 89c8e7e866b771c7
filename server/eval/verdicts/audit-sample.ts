/**
 * The audit of adopted passes, the pure part: how many of an adoption's passes are drawn for a person to check, and
 * which ones (pure, no I/O; `audit.ts` stores the draw).
 *
 * The algorithm (`AUDIT_ALGORITHM`, stored with every draw so a later change cannot silently re-read an old one):
 * 1. The population is the item ids of the passes the adoption wrote, sorted by code unit (JavaScript's default sort;
 *    item ids are ASCII, so it is also byte order and Python's `sorted`).
 * 2. The sample size is `auditSampleSize(N, rate)`: 0 when the rate is 0 ("no audit"), else ceil(rate * N), at least
 *    `AUDIT_MIN_ITEMS` (3), at most N (all of them when there are fewer).
 * 3. A PRNG, mulberry32 seeded with the stored seed (an integer 0 .. 2^31 - 1), drives a partial Fisher-Yates
 *    shuffle of the sorted ids: for i = 0 .. k - 1, j = i + floor(u * (N - i)) with u the next number in [0, 1),
 *    swap positions i and j. The first k ids, sorted again, are the sample.
 *
 * mulberry32 (Tommy Ettinger's 32-bit generator; state a, all arithmetic mod 2^32):
 *   a = a + 0x6D2B79F5; t = (a ^ a >>> 15) * (a | 1); t = (t + ((t ^ t >>> 7) * (t | 61))) ^ t;
 *   u = (t ^ t >>> 14) / 2^32
 * Anyone can redraw a sample from the stored seed and population (`audit-sample.test.ts` checks this function against
 * an independent Python implementation of the same steps).
 */

export const AUDIT_ALGORITHM = "mulberry32-fisher-yates/1";
/** An audit draws at least this many adopted passes (all of them when there are fewer), unless its rate is 0. */
export const AUDIT_MIN_ITEMS = 3;
/** The largest seed (seeds are 0 .. 2^31 - 1, so they fit a database integer). */
export const AUDIT_MAX_SEED = 2 ** 31 - 1;

/** The mulberry32 generator: each call returns the next number in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t = (t + Math.imul(t ^ (t >>> 7), t | 61)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How many of `population` adopted passes an audit at `rate` draws (see the header). */
export function auditSampleSize(population: number, rate: number): number {
  if (!(rate > 0) || population <= 0) return 0;
  // 0.1 * 30 is 3.0000000000000004 in floating point: round away the noise before ceil
  const share = Math.ceil(Math.round(rate * population * 1e9) / 1e9);
  return Math.min(population, Math.max(AUDIT_MIN_ITEMS, share));
}

/** The sample an audit at `rate` with `seed` draws from `ids` (any order; see the header): item ids, sorted. */
export function drawAuditSample(ids: readonly string[], rate: number, seed: number): string[] {
  if (!Number.isInteger(seed) || seed < 0 || seed > AUDIT_MAX_SEED)
    throw new RangeError(`drawAuditSample: the seed must be an integer 0 .. ${AUDIT_MAX_SEED}, got ${seed}`);
  const a = [...ids].sort();
  const k = auditSampleSize(a.length, rate);
  const next = mulberry32(seed);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(next() * (a.length - i));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a.slice(0, k).sort();
}
