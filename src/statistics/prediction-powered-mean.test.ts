import { describe, expect, it } from 'vitest'
import { predictionPoweredMean, type PredictionPoweredItem } from './prediction-powered-mean.ts'
import { Mulberry32 } from './seeded-random.ts'

const item = (stratum: string, judge: number, human: number | null = null): PredictionPoweredItem => ({ stratum, judge, human })

describe('predictionPoweredMean', () => {
  it('matches a stratified example worked by hand', () => {
    // Stratum A, N=4: f = 1, 1, 0, 1 (mean 0.75, sample variance 0.75/3 = 0.25); labelled: (f 1, y 0), (f 0, y 0),
    //   errors f - y = 1, 0 (mean 0.5, sample variance 0.5). theta_A = 0.75 - 0.5 = 0.25.
    // Stratum B, N=4: f = 0.5 x4 (mean 0.5, variance 0); labelled: (f 0.5, y 1), (f 0.5, y 0),
    //   errors -0.5, 0.5 (mean 0, sample variance 0.5). theta_B = 0.5.
    // Weights 4/8 each: estimate = 0.5*0.25 + 0.5*0.5 = 0.375; judge mean = 0.5*0.75 + 0.5*0.5 = 0.625; rectifier 0.25.
    // Covariance of (f, f - y) on the labelled: A: pairs (1, 1), (0, 0) -> 0.5; B: f constant -> 0.
    // Variance = 0.25*(0.25/4 + 0.5/2 - 2*0.5/4) + 0.25*(0/4 + 0.5/2 - 0) = 0.015625 + 0.0625 = 0.078125;
    // half-width = 1.959963984540054 * sqrt(0.078125) = 0.5478265878603635.
    const result = predictionPoweredMean([
      item('A', 1, 0),
      item('A', 1),
      item('A', 0, 0),
      item('A', 1),
      item('B', 0.5, 1),
      item('B', 0.5, 0),
      item('B', 0.5),
      item('B', 0.5),
    ])!
    expect(result.estimate).toBeCloseTo(0.375, 14)
    expect(result.judgeMean).toBeCloseTo(0.625, 14)
    expect(result.rectifier).toBeCloseTo(0.25, 14)
    expect(result.low).toBeCloseTo(0.375 - 0.5478265878603635, 12)
    expect(result.high).toBeCloseTo(0.375 + 0.5478265878603635, 12)
    expect(result).toMatchObject({
      questions: 8,
      labelled: 4,
      strata: [
        { stratum: 'A', questions: 4, labelled: 2 },
        { stratum: 'B', questions: 4, labelled: 2 },
      ],
    })
  })

  it("floors a stratum's error variance at that of all labels, so labels that agree still leave width", () => {
    // A: f = 1 x4, labels y = 1, 1: errors 0, 0 (variance 0). B: f = 1 x4, labels y = 0, 1: errors 1, 0 (variance 0.5).
    // All four errors 0, 0, 1, 0: mean 0.25, variance (3 * 0.0625 + 0.5625) / 3 = 0.25, A's floor. f is constant: no
    // var(f) or covariance. Variance = 0.25 * 0.25 / 2 + 0.25 * 0.5 / 2 = 0.09375 (without the floor 0.0625).
    // Estimate 0.5 * (1 - 0) + 0.5 * (1 - 0.5) = 0.75; half-width 1.959963984540054 * sqrt(0.09375) = 0.6001138.
    const result = predictionPoweredMean([
      ...[1, 1, null, null].map((y) => item('A', 1, y)),
      ...[0, 1, null, null].map((y) => item('B', 1, y)),
    ])!
    expect(result.estimate).toBeCloseTo(0.75, 14)
    expect(result.high - result.estimate).toBeCloseTo(0.6001138, 6)
  })

  it('pools strata with fewer than 2 labels, and joins a pool still short of 2 to the largest stratum', () => {
    // C and D have one label each: pooled as "C+D" (2 labels). Unstratified within it: f = 1, 0, 1, errors 1-1 = 0, 0-1 = -1.
    const pooled = predictionPoweredMean([item('C', 1, 1), item('C', 1), item('D', 0, 1), item('E', 1, 1), item('E', 1, 1)])!
    expect(pooled.strata).toEqual([
      { stratum: 'C+D', questions: 3, labelled: 2 },
      { stratum: 'E', questions: 2, labelled: 2 },
    ])
    // C+D: weight 3/5, mean f 2/3, mean error -1/2 -> 7/6; E: weight 2/5, 1 - 0 = 1. Estimate 0.6*7/6 + 0.4 = 1.1.
    expect(pooled.estimate).toBeCloseTo(1.1, 14)
    const joined = predictionPoweredMean([item('C', 1, 0), item('E', 1, 1), item('E', 0, 0), item('E', 1)])!
    expect(joined.strata).toEqual([{ stratum: 'E+C', questions: 4, labelled: 3 }])
    // One stratum: mean f 3/4, errors 1, 0, 0 (mean 1/3): estimate 3/4 - 1/3.
    expect(joined.estimate).toBeCloseTo(0.75 - 1 / 3, 14)
  })

  it('is null with fewer than 2 labels, and refuses a score that is not a finite number', () => {
    expect(predictionPoweredMean([item('A', 1, 1), item('A', 0)])).toBeNull()
    expect(() => predictionPoweredMean([item('A', Number.NaN, 1)])).toThrow('expected finite scores, got judge NaN')
  })

  it('covers the true mean at least 93% of the time for a biased, noisy judge on an unevenly stratified sample (2,000 seeds)', () => {
    // Superpopulation: stratum A (300 questions) has y = 1 with probability 0.8, stratum B (100) with 0.3, so the
    // true mean is (300*0.8 + 100*0.3)/400 = 0.675. The judge is lenient and noisy: f = 0.5 + 0.4 y + uniform(-0.3, 0.3).
    // Labels: 40 per stratum, so B is oversampled and only the stratum weights keep the estimate unbiased.
    const truth = 0.675
    let covered = 0
    let judgeMeans = 0
    const seeds = 2000
    for (let seed = 1; seed <= seeds; seed++) {
      const random = new Mulberry32(seed)
      const items: PredictionPoweredItem[] = []
      for (const [stratum, size, rate] of [
        ['A', 300, 0.8],
        ['B', 100, 0.3],
      ] as const) {
        for (let i = 0; i < size; i++) {
          const y = random.next() < rate ? 1 : 0
          const f = 0.5 + 0.4 * y + (random.next() - 0.5) * 0.6
          // The first 40 of each stratum are labelled: the draws are independent, so these are a random sample.
          items.push({ stratum, judge: f, human: i < 40 ? y : null })
        }
      }
      const result = predictionPoweredMean(items)!
      if (result.low <= truth && truth <= result.high) covered++
      judgeMeans += result.judgeMean
    }
    // The judge alone says 0.5 + 0.4*0.675 = 0.77 on average: 9.5 points too high.
    expect(judgeMeans / seeds).toBeCloseTo(0.77, 2)
    expect(covered / seeds).toBeGreaterThanOrEqual(0.93)
    // Each stratum's error variance is floored at that of all 80 labels, which holds the spread between A and B too: wider.
    expect(covered / seeds).toBeLessThanOrEqual(0.98)
  })
})
