/** Seeded randomness: every draw comes from an `Rng`, so a seed fixes the output (demo data, run sampling, the offline rules, the checks' probes). */

export type Rng = () => number;

/** mulberry32: a tiny, fast, seedable PRNG; good enough for sampling and demo data, not for secrets. */
export function mulberry32(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`index ${index} is outside a list of ${items.length}`);
  return item;
}
export const randInt = (rng: Rng, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));
export const uniform = (rng: Rng, lo: number, hi: number): number => lo + rng() * (hi - lo);
export const pick = <T>(rng: Rng, items: readonly T[]): T => at(items, Math.floor(rng() * items.length));

export function shuffle<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [at(out, j), at(out, i)];
  }
  return out;
}
