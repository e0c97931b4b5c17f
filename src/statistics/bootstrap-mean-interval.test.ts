import { describe, expect, it } from 'vitest'
import { mulberry32 } from '../support/seeded-random.ts'
import { bootstrapInterval, bootstrapMeanInterval, bootstrapMeanIntervals } from './bootstrap-interval.ts'
import { meanOrNull } from './descriptive.ts'

const mean = (sample: readonly number[]) => meanOrNull(sample)!

describe('bootstrapMeanInterval', () => {
  it.each([2, 3, 120, 1000])('is bootstrapInterval of the mean to the bit, %i values', (n) => {
    const random = mulberry32(n)
    // Continuous values with many decimals, and 0/1 outcomes: rounding would show in either.
    const continuous = Array.from({ length: n }, () => random())
    const binary = Array.from({ length: n }, () => (random() < 0.3 ? 1 : 0))
    for (const values of [continuous, binary]) {
      for (const options of [{ resamples: 2000, seed: 1 }, { resamples: 333, seed: 9, level: 0.9 }]) {
        expect(bootstrapMeanInterval(values, options)).toStrictEqual(bootstrapInterval(values, mean, options))
      }
    }
  })

  it('null for no values, the value itself for one', () => {
    expect(bootstrapMeanInterval([], { resamples: 10, seed: 1 })).toBeNull()
    expect(bootstrapMeanInterval([0.25], { resamples: 10, seed: 1 })).toEqual({ low: 0.25, high: 0.25, method: 'bootstrap-percentile' })
  })

  it('bootstrapMeanIntervals gives each list its own bootstrapInterval of the mean, lists of equal length sharing the draws', () => {
    const random = mulberry32(5)
    const lists = [120, 7, 120, 0, 1, 7, 120].map((n) => Array.from({ length: n }, () => (random() < 0.5 ? random() : 1)))
    const options = { resamples: 500, seed: 3 }
    expect(bootstrapMeanIntervals(lists, options)).toStrictEqual(lists.map((values) => bootstrapInterval(values, mean, options)))
  })

  it('a constant list (a run equal to its baseline: every paired difference 0) gets the general path’s interval without a draw, to the bit', () => {
    const random = mulberry32(11)
    // 0.1 does not add up exactly: 120 of them sum to 11.999999999999973, and the mean keeps that.
    const lists = [Array(120).fill(0.1), Array(120).fill(0), Array(7).fill(1), Array.from({ length: 120 }, () => random()), Array(2).fill(0.7)]
    const options = { resamples: 400, seed: 2 }
    const intervals = bootstrapMeanIntervals(lists, options)
    expect(intervals).toStrictEqual(lists.map((values) => bootstrapInterval(values, mean, options)))
    expect(intervals[0]).toEqual({ low: 0.09999999999999978, high: 0.09999999999999978, method: 'bootstrap-percentile' })
  })
})
