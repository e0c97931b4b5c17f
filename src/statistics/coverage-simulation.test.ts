import { beforeAll, describe, expect, it } from 'vitest'
import { coverageSimulation, type SimulationRow } from './testing/coverage-simulation.ts'

describe('every interval and test on simulated golden sets (pnpm sim:coverage prints the full table)', () => {
  // 400 replicates: the Monte Carlo standard error at 95% is 1.1 points, so a method that truly covers 90% shows
  // 93% or more with probability under 0.3%; 1,000 resamples keep the run to a few seconds of CPU.
  let rows: SimulationRow[] = []
  beforeAll(() => {
    rows = coverageSimulation({ replicates: 400, resamples: 1000 })
  })

  it('covers the truth at least 93% of the time with every 95% interval, in every scenario', () => {
    const coverage = rows.filter((row) => row.kind === 'coverage')
    expect(coverage.map((row) => row.method)).toEqual(expect.arrayContaining(['Wilson', 'prediction-powered']))
    expect(coverage.filter((row) => row.rate < 0.93)).toEqual([])
  })

  it('rejects a true "no difference" at most 6% of the time with every test at alpha 0.05', () => {
    const tests = rows.filter((row) => row.kind === 'false positives')
    expect(new Set(tests.map((row) => row.method))).toEqual(new Set(['exact McNemar', 'sign-flip permutation']))
    expect(tests.filter((row) => row.rate > 0.06)).toEqual([])
  })
})
