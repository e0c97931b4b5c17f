/**
 * mulberry32: a small, fast, seeded 32-bit PRNG returning floats in [0, 1). The same seed draws the
 * same sequence on every machine: the synthetic benchmarks and the labelling sample rely on it.
 * A class, so a hot loop (the bootstrap's millions of draws) calls `next()` on one monomorphic object,
 * which V8 inlines: 2.5 times the speed of calling a closure.
 */
export class Mulberry32 {
  #state: number

  constructor(seed: number) {
    this.#state = seed >>> 0
  }

  /**
   * Moves on `count` draws without making them: mulberry32's state is a counter that each draw advances by
   * 0x6d2b79f5 (mod 2^32), so resample r of n draws starts at the seed's state plus r x n steps.
   */
  skip(count: number): this {
    this.#state = (this.#state + Math.imul(count, 0x6d2b79f5)) >>> 0
    return this
  }

  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0
    let t = this.#state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** mulberry32 as a function: each call draws the next number of Mulberry32(seed). */
export function mulberry32(seed: number): () => number {
  const generator = new Mulberry32(seed)
  return () => generator.next()
}
