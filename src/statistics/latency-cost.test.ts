import { describe, expect, it } from 'vitest'
import { latencyCostGate } from '../gate/latency-cost-gate.ts'
import type { BaselineRun } from '../gate/baseline-schema.ts'
import { latencyCostRises, type RunFigures } from './latency-cost-rises.ts'
import { exactPercentileInterval } from './percentile-interval.ts'

const interval = (low: number, high: number) => ({ low, high, method: 'bootstrap-percentile' as const })

describe('exactPercentileInterval: the exact percentile bootstrap of a nearest-rank percentile', () => {
  it('gives hand-worked bounds', () => {
    // p95 of 3 values is the resample's largest: P(largest <= 10) = (1/3)^3 = 0.037 >= 0.025, so 10 is the lower bound;
    // P(largest <= 20) = 8/27 < 0.975, so 30 the upper one.
    expect(exactPercentileInterval([30, 10, 20], 95)).toEqual(interval(10, 30))
    // p50 of 3 is the second smallest: P(<= 10) = P(Bin(3, 1/3) >= 2) = 7/27, P(<= 20) = P(Bin(3, 2/3) >= 2) = 20/27.
    expect(exactPercentileInterval([10, 20, 30], 50)).toEqual(interval(10, 30))
    // p95 of 4 is the largest: P(<= x1) = 1/256 < 0.025, P(<= x2) = 16/256 >= 0.025; P(<= x3) = 81/256 < 0.975.
    expect(exactPercentileInterval([1, 2, 3, 4], 95)).toEqual(interval(2, 4))
    expect(exactPercentileInterval([7], 95)).toEqual(interval(7, 7))
    expect(exactPercentileInterval([], 95)).toBeNull()
  })
})

/** A run's figures with the whole call's p95, one stage's and the USD per question, each with its interval. */
function figures(
  call: [number, number, number],
  usd: [number, number, number] | null,
  stages: Record<string, [number, number, number]> = {},
): RunFigures {
  const latency = ([p95, low, high]: [number, number, number]) => ({ p50: p95, p95, p95Interval: interval(low, high) })
  return {
    latencyMs: { system: latency(call), retrieve: null, generate: null, judge: null },
    stageLatencyMs: Object.fromEntries(Object.entries(stages).map(([name, value]) => [name, latency(value)])),
    costPerQuestion: usd && { tokens: 100, usd: usd[0], usdInterval: interval(usd[1], usd[2]) },
  }
}

describe('latencyCostRises', () => {
  const before = figures([100, 90, 110], [0.01, 0.009, 0.011], { retrieve: [50, 45, 55], rerank: [5, 4, 6] })
  it('flags a rise whose interval lies wholly above before x (1 + tolerance), and only that', () => {
    // 125 > 100 x 1.2 = 120: risen; the stage's 58 is within 50 x 1.2 = 60; 0.0125 > 0.01 x 1.2 = 0.012: risen.
    const after = figures([130, 125, 140], [0.02, 0.0125, 0.03], { retrieve: [70, 58, 80], expand: [9, 9, 9] })
    expect(latencyCostRises(before, after, { latency: 0.2, cost: 0.2 }).map((r) => [r.name, r.risen])).toEqual([
      ['p95 latency ms (whole call)', true],
      ['p95 latency ms (stage retrieve)', false],
      ['USD per question', true],
    ])
  })
  it('leaves out what has no tolerance or no figure on a side', () => {
    const after = figures([130, 125, 140], null)
    expect(latencyCostRises(before, after, { latency: null, cost: 0.2 })).toEqual([])
    expect(latencyCostRises(before, after, { latency: 0.5, cost: 0.2 })).toEqual([
      {
        name: 'p95 latency ms (whole call)',
        before: 100,
        beforeInterval: interval(90, 110),
        after: 130,
        afterInterval: interval(125, 140),
        tolerance: 0.5,
        risen: false,
      },
    ])
  })
})

describe('latencyCostGate: the gate against the baseline run.json', () => {
  const run: BaselineRun = { schemaVersion: 1, ...figures([100, 90, 110], null) }
  const summary = {} as never
  const slower = figures([300, 280, 320], null)
  it('fails a p95 latency risen beyond latencyTolerance', () => {
    expect(latencyCostGate({ latencyTolerance: 0.2 }, slower, { summary, questions: [], run }, 'baseline')).toEqual({
      baseline: 'baseline/run.json',
      latencyTolerance: 0.2,
      costTolerance: null,
      regressions: [{ name: 'p95 latency ms (whole call)', baseline: 100, current: 300, delta: 200 }],
    })
  })
  it('gates nothing without a tolerance; says so when the baseline kept no run figures', () => {
    expect(latencyCostGate({}, slower, { summary, questions: [], run }, 'baseline')).toBeNull()
    expect(latencyCostGate({ costTolerance: 0.1 }, slower, { summary, questions: [] }, 'baseline')).toEqual({
      baseline: null,
      latencyTolerance: null,
      costTolerance: 0.1,
      regressions: [],
    })
  })
})
