/** mulberry32's output for a state: a float in [0, 1). */
function mix(state: number): number {
  let t = Math.imul(state ^ (state >>> 15), state | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/**
 * mulberry32: a seeded 32-bit PRNG, floats in [0, 1), the same sequence on every machine. A class so the hot
 * loop's `next()` stays monomorphic and V8 inlines it (docs/scaling.md).
 */
export class Mulberry32 {
  #state: number

  constructor(seed: number) {
    this.#state = seed >>> 0
  }

  /** Skips `count` draws: the state is a counter advancing 0x6d2b79f5 (mod 2^32) per draw. */
  skip(count: number): this {
    this.#state = (this.#state + Math.imul(count, 0x6d2b79f5)) >>> 0
    return this
  }

  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0
    return mix(this.#state)
  }

  /**
   * The next `count` draws as indices below `below` (`Math.floor(next() * below)` each) into `into`: the state kept
   * in a local through the loop, which the bootstrap's resamples draw at about 1.5 times next()'s speed (docs/scaling.md).
   */
  indices(into: Int32Array, count: number, below: number): void {
    let state = this.#state
    for (let i = 0; i < count; i++) {
      state = (state + 0x6d2b79f5) >>> 0
      into[i] = Math.floor(mix(state) * below)
    }
    this.#state = state
  }
}

/** mulberry32 as a function: each call draws the next number of Mulberry32(seed). */
export function mulberry32(seed: number): () => number {
  const generator = new Mulberry32(seed)
  return () => generator.next()
}
