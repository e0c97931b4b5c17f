import { describe, expect, it } from 'vitest'
import { latencyCostGate } from '../gate/latency-cost-gate.ts'
import type { BaselineRun } from '../gate/baseline-schema.ts'
import { latencyCostRises, type RunFigures } from './latency-cost-rises.ts'
import { percentileInterval } from './percentile-interval.ts'
import { Mulberry32 } from './seeded-random.ts'

const interval = (low: number, high: number) => ({ low, high, method: 'bootstrap-percentile' as const })

describe("percentileInterval: a percentile's distribution-free interval from order statistics", () => {
  it('gives hand-worked bounds', () => {
    // p95 of 3: x(1) <= the 95th percentile w.p. P(Bin(3, .95) >= 1) = 0.999875, x(2) w.p. P(>= 2) = 0.99275 (>= 0.975),
    // x(3) w.p. 0.857375 (< 0.975): low 20. High: P(Bin(3, .95) < 3) = 0.142625 < 0.975 even at x(3): none.
    expect(percentileInterval([30, 10, 20], 95)).toEqual({ low: 20, high: null })
    // p50 of 3: P(Bin(3, .5) >= 1) = 0.875 < 0.975: no low bound; P(< 3) = 0.875: no high one either.
    expect(percentileInterval([10, 20, 30], 50)).toEqual({ low: null, high: null })
    expect(percentileInterval([], 95)).toBeNull()
  })
  it('covers the 95th and 50th percentiles at least 95% of the time (seeded simulation, uniform values)', () => {
    const random = new Mulberry32(7)
    for (const [n, p] of [
      [13, 95],
      [100, 95],
      [13, 50],
      [100, 50],
    ] as const) {
      let covered = 0
      for (let trial = 0; trial < 2000; trial++) {
        const bounds = percentileInterval(
          Array.from({ length: n }, () => random.next()),
          p,
        )!
        if ((bounds.low === null || bounds.low <= p / 100) && (bounds.high === null || bounds.high >= p / 100)) covered++
      }
      expect([n, p, covered / 2000 >= 0.95]).toEqual([n, p, true])
    }
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
