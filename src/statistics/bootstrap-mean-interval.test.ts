import { describe, expect, it } from 'vitest'
import { Mulberry32, mulberry32 } from './seeded-random.ts'
import { bootstrapMeanInterval, bootstrapMeanIntervals } from './bootstrap-interval.ts'
import { referenceMeanInterval } from './testing/reference-mean-interval.ts'
import { resampleMeans } from './mean-resamples.ts'

describe('bootstrapMeanInterval', () => {
  it.each([2, 3, 120, 1000])('is the resampling loop’s BCa interval of the mean to the bit, %i values', (n) => {
    const random = mulberry32(n)
    // Continuous values with many decimals, and 0/1 outcomes: rounding would show in either.
    const continuous = Array.from({ length: n }, () => random())
    const binary = Array.from({ length: n }, () => (random() < 0.3 ? 1 : 0))
    for (const values of [continuous, binary]) {
      for (const options of [
        { resamples: 2000, seed: 1 },
        { resamples: 333, seed: 9, level: 0.9 },
      ]) {
        expect(bootstrapMeanInterval(values, options)).toStrictEqual(referenceMeanInterval(values, options))
      }
    }
  })

  it('null for no values, the value itself for one', () => {
    expect(bootstrapMeanInterval([], { resamples: 10, seed: 1 })).toBeNull()
    expect(bootstrapMeanInterval([0.25], { resamples: 10, seed: 1 })).toEqual({
      low: 0.25,
      high: 0.25,
      method: 'bootstrap-percentile',
    })
  })

  it('bootstrapMeanIntervals gives each list its own interval of the mean (the loop’s), lists of equal length sharing the draws', () => {
    const random = mulberry32(5)
    const lists = [120, 7, 120, 0, 1, 7, 120].map((n) => Array.from({ length: n }, () => (random() < 0.5 ? random() : 1)))
    const options = { resamples: 500, seed: 3 }
    expect(bootstrapMeanIntervals(lists, options)).toStrictEqual(lists.map((values) => referenceMeanInterval(values, options)))
  })

  it('a constant list (a run equal to its baseline: every paired difference 0) gets the general path’s interval without a draw, to the bit', () => {
    const random = mulberry32(11)
    // 0.1 does not add up exactly: 120 of them sum to 11.999999999999973, and the mean keeps that.
    const lists = [
      Array(120).fill(0.1),
      Array(120).fill(0),
      Array(7).fill(1),
      Array.from({ length: 120 }, () => random()),
      Array(2).fill(0.7),
    ]
    const options = { resamples: 400, seed: 2 }
    const intervals = bootstrapMeanIntervals(lists, options)
    expect(intervals).toStrictEqual(lists.map((values) => referenceMeanInterval(values, options)))
    expect(intervals[0]).toEqual({ low: 0.09999999999999978, high: 0.09999999999999978, method: 'bootstrap-percentile' })
  })
})

describe('resampling on two threads', () => {
  it('Mulberry32.skip(k) lands where k draws would', () => {
    const drawn = new Mulberry32(77)
    for (let i = 0; i < 1234; i++) drawn.next()
    expect(new Mulberry32(77).skip(1234).next()).toBe(drawn.next())
    // Past 2^32 draws the counter wraps as the draws would: 2^32 draws bring the state back to the seed.
    expect(new Mulberry32(77).skip(2 ** 32).next()).toBe(new Mulberry32(77).next())
  })

  it('resampleMeans gives every resample the same replicates to the bit, in blocks taken in any order', () => {
    const random = mulberry32(11)
    const n = 500
    const lists = 3
    const columns = Float64Array.from({ length: n * lists }, () => random())
    const whole = { n, lists, columns, replicates: new Float64Array(lists * 40) }
    const blocks = { n, lists, columns, replicates: new Float64Array(lists * 40) }
    const drawn = new Int32Array(n)
    resampleMeans(whole, 5, 40, 0, 40, drawn)
    for (const [from, to] of [
      [33, 40],
      [0, 5],
      [17, 33],
      [5, 17],
    ] as const)
      resampleMeans(blocks, 5, 40, from, to, drawn)
    expect(blocks.replicates).toEqual(whole.replicates)
    expect(new Set(whole.replicates).size).toBe(lists * 40)
  })
})
