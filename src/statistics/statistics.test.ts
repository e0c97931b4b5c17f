import { describe, expect, it } from 'vitest'
import { meanOrNull } from './descriptive.ts'
import { bootstrapInterval } from './bootstrap-interval.ts'
import { exactMcNemar } from './exact-mcnemar.ts'
import { minimumDetectableDrop } from './minimum-detectable-drop.ts'
import { normalQuantile } from './normal-quantile.ts'
import { pairedBootstrapDeltaInterval } from './paired-bootstrap-delta-interval.ts'
import { pairedPermutationTest } from './paired-permutation-test.ts'
import { wilsonInterval } from './wilson-interval.ts'

const mean = (sample: readonly number[]) => meanOrNull(sample)!

describe('normalQuantile', () => {
  it('gives the published standard normal quantiles (R qnorm)', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 14)
    expect(normalQuantile(0.8)).toBeCloseTo(0.8416212335729143, 14)
    expect(normalQuantile(0.025)).toBeCloseTo(-1.959963984540054, 14)
    expect(normalQuantile(0.5)).toBe(0)
    // qnorm(1e-10) = -6.361340902404056: the tail branch of AS 241
    expect(normalQuantile(1e-10)).toBeCloseTo(-6.361340902404056, 12)
  })
  it('refuses probabilities outside (0, 1)', () => {
    expect(() => normalQuantile(1)).toThrow('expected a probability strictly between 0 and 1, got 1')
  })
})

describe('wilsonInterval', () => {
  // Newcombe (1998), "Two-sided confidence intervals for the single proportion", Statistics in Medicine 17,
  // Table II, method 3 (score interval without continuity correction), 95%.
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])("%i/%i gives Newcombe's published %f to %f", (successes, n, low, high) => {
    const interval = wilsonInterval(successes, n)!
    expect(interval.method).toBe('wilson')
    expect(interval.low).toBeCloseTo(low, 4)
    expect(interval.high).toBeCloseTo(high, 4)
  })
  it('mirrors 0 of 20 at 20 of 20, with the upper bound exactly 1', () => {
    const all = wilsonInterval(20, 20)!
    expect(all.high).toBe(1)
    expect(all.low).toBeCloseTo(1 - 0.1611, 4)
  })
  it('hand-worked 90% interval for 1 of 2', () => {
    // z = 1.644854, z² = 2.705544, p = 0.5, n = 2: centre = 0.5, half = z·sqrt(0.125 + z²/16) / (1 + z²/2)
    //   = 1.644854 · sqrt(0.125 + 0.169096) / 2.352772 = 1.644854 · 0.542306 / 2.352772 = 0.379134
    const interval = wilsonInterval(1, 2, 0.9)!
    expect(interval.low).toBeCloseTo(0.5 - 0.379134, 5)
    expect(interval.high).toBeCloseTo(0.5 + 0.379134, 5)
  })
  it('is null for n = 0, and refuses impossible counts', () => {
    expect(wilsonInterval(0, 0)).toBeNull()
    expect(() => wilsonInterval(3, 2)).toThrow('expected whole counts with 0 <= successes <= n, got 3 of 2')
  })
})

describe('bootstrapInterval', () => {
  it('matches the exact bootstrap distribution of a small sample', () => {
    // Resampling [0, 0, 1]: the mean is k/3 with k ~ Binomial(3, 1/3): P = 8/27, 12/27, 6/27, 1/27 for
    // k = 0..3. Cumulative: 0.296, 0.741, 0.963, 1. The 5% quantile is 0; the 95% one is 2/3 (0.963 >= 0.95,
    // with a margin of 26 of 2,000 resamples, 3 standard deviations).
    const interval = bootstrapInterval([0, 0, 1], mean, { resamples: 2000, seed: 7, level: 0.9 })!
    expect(interval).toEqual({ low: 0, high: 2 / 3, method: 'bootstrap-percentile' })
  })
  it('agrees with the normal interval for a large sample', () => {
    // 400 values, half 1: mean 0.5 ± 1.96·sqrt(0.25/400) = 0.5 ± 0.049
    const values = Array.from({ length: 400 }, (_, i) => i % 2)
    const interval = bootstrapInterval(values, mean, { resamples: 2000, seed: 1 })!
    expect(interval.low).toBeCloseTo(0.451, 2)
    expect(interval.high).toBeCloseTo(0.549, 2)
  })
  it('is deterministic for a seed', () => {
    const values = [0.1, 0.5, 0.25, 1, 0, 0.75, 0.33]
    const first = bootstrapInterval(values, mean, { resamples: 500, seed: 42 })
    expect(bootstrapInterval(values, mean, { resamples: 500, seed: 42 })).toEqual(first)
    expect(bootstrapInterval(values, mean, { resamples: 500, seed: 43 })).not.toEqual(first)
  })
  it('is null for no values and degenerate for one', () => {
    expect(bootstrapInterval([], mean, { resamples: 10, seed: 1 })).toBeNull()
    expect(bootstrapInterval([0.4], mean, { resamples: 10, seed: 1 })).toEqual({
      low: 0.4,
      high: 0.4,
      method: 'bootstrap-percentile',
    })
  })
  it('refuses a bad resample count or level', () => {
    expect(() => bootstrapInterval([1, 2], mean, { resamples: 0, seed: 1 })).toThrow(
      'expected a whole number of resamples >= 1, got 0',
    )
    expect(() => bootstrapInterval([1, 2], mean, { resamples: 10, seed: 1, level: 95 })).toThrow(
      'expected a confidence level strictly between 0 and 1 (e.g. 0.95), got 95',
    )
  })
})

describe('pairedBootstrapDeltaInterval', () => {
  it('bootstraps the per-item differences b - a', () => {
    // Differences [0, 0, 1] (b - a): the percentile interval would be [0, 2/3] (above), but 3 values widen it about
    // the mean 1/3 by sqrt(3/2) * t_2(0.95) / z(0.95) = 1.2247 * 2.9200 / 1.6449 = 2.17, to the values' range.
    const interval = pairedBootstrapDeltaInterval([1, 0.5, 0], [1, 0.5, 1], { resamples: 2000, seed: 7, level: 0.9 })
    expect(interval).toEqual({ low: 0, high: 1, method: 'bootstrap-percentile' })
  })
  it('is a point when every item moved by the same amount, null for no items, and refuses unpaired lists', () => {
    expect(pairedBootstrapDeltaInterval([0.2, 0.4], [0.1, 0.3], { resamples: 100, seed: 1 })).toEqual({
      low: expect.closeTo(-0.1, 12),
      high: expect.closeTo(-0.1, 12),
      method: 'bootstrap-percentile',
    })
    expect(pairedBootstrapDeltaInterval([], [], { resamples: 100, seed: 1 })).toBeNull()
    expect(() => pairedBootstrapDeltaInterval([1], [1, 2], { resamples: 100, seed: 1 })).toThrow(
      'expected one value per item in both lists, got 1 and 2',
    )
  })
})

describe('exactMcNemar', () => {
  it('gives hand-worked two-sided binomial p-values', () => {
    // b + c = 5, min 1: 2·(1 + 5)/32 = 0.375 (statsmodels mcnemar([[0, 1], [4, 0]], exact=True).pvalue)
    expect(exactMcNemar(1, 4)).toBeCloseTo(0.375, 14)
    expect(exactMcNemar(4, 1)).toBeCloseTo(0.375, 14)
    // b + c = 10, min 2: 2·(1 + 10 + 45)/1024 = 0.109375
    expect(exactMcNemar(2, 8)).toBeCloseTo(0.109375, 14)
    // 0 vs 6: 2/64 = 0.03125, the fewest one-way flips significant at 0.05; 0 vs 5: 2/32 = 0.0625 is not
    expect(exactMcNemar(0, 6)).toBeCloseTo(0.03125, 14)
    expect(exactMcNemar(0, 5)).toBeCloseTo(0.0625, 14)
  })
  it('is 1 when nothing changed or the flips balance', () => {
    expect(exactMcNemar(0, 0)).toBe(1)
    expect(exactMcNemar(3, 3)).toBe(1)
  })
  it('stays exact for 10,000 discordant pairs (checked against exact integer arithmetic)', () => {
    // 2 · sum_{k <= 4900} C(10000, k) / 2^10000, in BigInt, scaled to a float at the end.
    let coefficient = 1n
    let tail = 1n
    for (let k = 1n; k <= 4900n; k++) {
      coefficient = (coefficient * (10000n - k + 1n)) / k
      tail += coefficient
    }
    const shift = 10000n - 60n
    const exact = (2 * Number(tail >> shift)) / 2 ** 60
    expect(exactMcNemar(4900, 5100)).toBeCloseTo(exact, 12)
    expect(exact).toBeCloseTo(0.04659, 4)
  })
  it('refuses counts that are not whole numbers >= 0', () => {
    expect(() => exactMcNemar(-1, 2)).toThrow('expected whole discordant counts >= 0, got b = -1, c = 2')
  })
})

describe('pairedPermutationTest', () => {
  it('enumerates all sign flips when 2^n <= resamples', () => {
    // d = [1, 2, 3]: the 8 sums ±1±2±3 are 6, 4, 2, 0, 0, -2, -4, -6; |sum| >= 6 twice: p = 2/8
    expect(pairedPermutationTest([0, 0, 0], [1, 2, 3], { resamples: 8, seed: 1 })).toBe(0.25)
    // d = [1, -1, 2]: sums ±1±1±2 with observed |2|: |sum| in {4, 2, 2, 0, 0, 2, 2, 4}; >= 2 six times: 6/8
    expect(pairedPermutationTest([0, 1, 0], [1, 0, 2], { resamples: 100, seed: 1 })).toBe(0.75)
  })
  it('ignores zero differences (their sign changes nothing)', () => {
    expect(pairedPermutationTest([0, 0, 0, 5], [1, 2, 3, 5], { resamples: 8, seed: 1 })).toBe(0.25)
  })
  it('draws random flips with the +1 correction otherwise', () => {
    // 20 differences of +1: only the all-plus and all-minus flips (2 of 2^20 = 1 in 524,288) reach |20|,
    // so 999 random flips almost surely find none: p = (0 + 1)/(999 + 1).
    const a = new Array<number>(20).fill(0)
    const b = new Array<number>(20).fill(1)
    expect(pairedPermutationTest(a, b, { resamples: 999, seed: 3 })).toBe(0.001)
  })
  it('approximates the exact p-value when sampling', () => {
    const a = [0.2, 0.5, 0.1, 0.9, 0.4, 0.3, 0.7, 0.6, 0.2, 0.8, 0.5, 0.1]
    const b = [0.4, 0.5, 0.3, 0.8, 0.7, 0.3, 0.9, 0.9, 0.1, 1.0, 0.6, 0.4]
    const exact = pairedPermutationTest(a, b, { resamples: 4096, seed: 1 })
    const sampled = pairedPermutationTest(a, b, { resamples: 4000, seed: 1 })
    // The sampled share has a standard error of sqrt(p(1-p)/4000) <= 0.008.
    expect(Math.abs(sampled - exact)).toBeLessThan(0.03)
    expect(exact).toBeGreaterThan(0)
    expect(exact).toBeLessThan(0.05)
  })
  it('is 1 for no pairs or no differences, and refuses unpaired lists', () => {
    expect(pairedPermutationTest([], [], { resamples: 10, seed: 1 })).toBe(1)
    expect(pairedPermutationTest([1, 2], [1, 2], { resamples: 10, seed: 1 })).toBe(1)
    expect(() => pairedPermutationTest([1], [], { resamples: 10, seed: 1 })).toThrow(
      'expected one value per item in both lists, got 1 and 0',
    )
  })
})

describe('minimumDetectableDrop', () => {
  it('is z²/n at power 0.5 (hand-worked: 1.959964² / 100 = 0.038415)', () => {
    expect(minimumDetectableDrop(100, 0.9, { power: 0.5 })).toBeCloseTo(0.038415, 6)
  })
  it("solves Connor's McNemar sample-size formula at 80% power", () => {
    const drop = minimumDetectableDrop(107, 0.9)!
    // Hand-worked: s = (sqrt(107·(107 - 3.841459 + 0.708326)) - 1.959964·0.841621) / (107 + 0.708326)
    //   = (105.421795 - 1.649547) / 107.708326 = 0.963457; drop = 1 - s² = 0.071751
    expect(drop).toBeCloseTo(0.071751, 5)
    // ... and plugging it back into n = (z_a·sqrt(δ) + z_p·sqrt(δ - δ²))² / δ² gives 107 questions.
    const za = normalQuantile(0.975)
    const zp = normalQuantile(0.8)
    expect((za * Math.sqrt(drop) + zp * Math.sqrt(drop - drop * drop)) ** 2 / drop ** 2).toBeCloseTo(107, 8)
  })
  it('is null when even losing every hit could not be detected', () => {
    expect(minimumDetectableDrop(107, 0.05)).toBeNull()
    expect(minimumDetectableDrop(3, 1)).toBeNull()
  })
  it('refuses bad arguments', () => {
    expect(() => minimumDetectableDrop(0, 0.5)).toThrow('expected a whole number of questions >= 1, got 0')
    expect(() => minimumDetectableDrop(10, 0.5, { power: 0.2 })).toThrow('expected power within [0.5, 1), got 0.2')
  })
})

describe('the worked example of docs/statistics.md', () => {
  it('gives the numbers the page quotes', () => {
    const recall = wilsonInterval(96, 107)!
    expect([recall.low, recall.high]).toEqual([expect.closeTo(0.825, 3), expect.closeTo(0.942, 3)])
    expect(exactMcNemar(5, 1)).toBeCloseTo(14 / 64, 14)
    expect(exactMcNemar(7, 0)).toBeCloseTo(2 / 128, 14)
    expect(minimumDetectableDrop(107, 96 / 107)).toBeCloseTo(0.072, 3)
    const a = [1, 0.5, 1, 1, 0.333, 0, 1, 0.25, 1, 0.5]
    const b = [1, 1, 1, 1, 0.5, 0, 1, 0.5, 1, 1]
    expect(bootstrapInterval(a, mean, { resamples: 2000, seed: 1 })).toEqual({
      low: expect.closeTo(0.425, 3),
      high: expect.closeTo(0.883, 3),
      method: 'bootstrap-percentile',
    })
    expect(pairedPermutationTest(a, b, { resamples: 2000, seed: 1 })).toBe(2 / 16)
  })
})
