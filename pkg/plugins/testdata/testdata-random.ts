/**
 * The seeded random numbers of the testdata scenarios: the same range and series index give the same series, so a
 * dashboard refreshed over a fixed range shows the same data (the anchor seeds from from+to+index likewise).
 */

/** A 32-bit mix of a number that may exceed 2^32 (epoch ms sums): both halves count. */
function seedOf(n: number): number {
  const hi = Math.floor(n / 0x1_0000_0000);
  const lo = n >>> 0;
  let h = Math.imul(lo ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(hi + 0x632be5ab, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h >>> 0;
}

/**
 * A generator of floats in [0, 1) (mulberry32) seeded from the range and the series index.
 *
 * @example const rand = seededRandom(from, to, 0); rand(); // same value for the same from, to and index
 */
export function seededRandom(from: number, to: number, index: number): () => number {
  let state = seedOf(from + to + index);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
