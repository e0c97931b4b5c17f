import { afterEach, describe, expect, it, vi } from 'vitest'
import { bootstrapMeanIntervals } from '../statistics/bootstrap-interval.ts'
import { referenceMeanInterval } from '../statistics/testing/reference-mean-interval.ts'
import { mulberry32 } from '../statistics/seeded-random.ts'
import { parallelMeanResampler, threadsStarted } from './index.ts'

// A worker thread's start and its modules' loading take seconds on a busy machine: the verdict waits for it.

const helpers = () => threadsStarted()['resample-thread-main'] ?? 0

// Millions of draws: enough work for the helper thread (its threshold is 30 million draws and additions).
const random = mulberry32(21)
const lists = [20_000, 7_000, 20_000, 20_000, 7_000].map((n) => Array.from({ length: n }, () => (random() < 0.4 ? random() : 0)))
const options = { resamples: 300, seed: 8 }
const expected = lists.map((values) => referenceMeanInterval(values, options))

describe('parallelMeanResampler', () => {
  afterEach(() => vi.unstubAllEnvs())

  it('with millions of draws, a second thread helps and bootstrapMeanIntervals still gives the loop’s interval of the mean to the bit', () => {
    const before = helpers()
    expect(bootstrapMeanIntervals(lists, { ...options, resampler: parallelMeanResampler })).toStrictEqual(expected)
    expect(helpers()).toBe(before + 1)
  })

  it('with RAG_EVAL_THREADS=0 starts no thread and gives the same intervals', () => {
    vi.stubEnv('RAG_EVAL_THREADS', '0')
    const before = helpers()
    expect(bootstrapMeanIntervals(lists, { ...options, resampler: parallelMeanResampler })).toStrictEqual(expected)
    expect(helpers()).toBe(before)
  })
})
