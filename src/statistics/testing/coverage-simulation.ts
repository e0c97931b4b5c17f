import { bootstrapMeanInterval } from '../bootstrap-interval.ts'
import { boundedMeanInterval } from '../bounded-mean-interval.ts'
import { exactMcNemar } from '../exact-mcnemar.ts'
import { pairedBootstrapDeltaInterval } from '../paired-bootstrap-delta-interval.ts'
import { pairedPermutationTest } from '../paired-permutation-test.ts'
import { predictionPoweredMean, type PredictionPoweredItem } from '../prediction-powered-mean.ts'
import { Mulberry32 } from '../seeded-random.ts'
import { wilsonInterval } from '../wilson-interval.ts'

/** One row of the table: how often a 95% interval held the truth, or how often a test at alpha 0.05 rejected a true null. */
export interface SimulationRow {
  method: string
  scenario: string
  kind: 'coverage' | 'false positives'
  replicates: number
  rate: number
}

/** Replicates per row and the bootstrap's resamples (the product's 2,000 unless a fast run asks fewer). */
export interface SimulationSize {
  replicates: number
  resamples: number
}

type Draw = (random: Mulberry32) => number

/** A per-question value drawn from a discrete distribution: [value, probability] pairs. */
const discrete =
  (pairs: readonly (readonly [number, number])[]): Draw =>
  (random) => {
    let u = random.next()
    for (const [value, probability] of pairs) if ((u -= probability) < 0) return value
    return pairs.at(-1)![0]
  }
const meanOf = (pairs: readonly (readonly [number, number])[]) => pairs.reduce((s, [v, p]) => s + v * p, 0)

// Reciprocal ranks of a good retriever: mostly first, some lower, some misses.
const RANKS = [
  [1, 0.6],
  [0.5, 0.15],
  [1 / 3, 0.08],
  [0.25, 0.05],
  [0, 0.12],
] as const
// Faithfulness: most answers wholly supported, the rest partly.
const FAITHFUL = [
  [1, 0.9],
  [0.75, 0.04],
  [0.5, 0.03],
  [0, 0.03],
] as const

const sample = (n: number, draw: Draw, random: Mulberry32) => Array.from({ length: n }, () => draw(random))

function rate(replicates: number, seed: number, trial: (random: Mulberry32) => boolean): number {
  const random = new Mulberry32(seed)
  let hits = 0
  for (let r = 0; r < replicates; r++) if (trial(random)) hits++
  return hits / replicates
}

const holds = (interval: { low: number; high: number } | null, truth: number) =>
  interval !== null && interval.low <= truth && truth <= interval.high

/**
 * Prediction-powered scenario of a label sample like this repository's: strata of `size` questions with `labels`
 * labelled each; the judge calls every answer supported (f = 1) and people find it supported with each stratum's rate.
 */
function ppiTrial(strata: readonly { size: number; labels: number; supported: number }[]) {
  const total = strata.reduce((s, h) => s + h.size, 0)
  const truth = strata.reduce((s, h) => s + (h.size / total) * h.supported, 0)
  return (random: Mulberry32) => {
    const items: PredictionPoweredItem[] = strata.flatMap((h, k) =>
      Array.from({ length: h.size }, (_, i) => ({
        stratum: `s${k}`,
        judge: 1,
        human: i < h.labels ? (random.next() < h.supported ? 1 : 0) : null,
      })),
    )
    return holds(predictionPoweredMean(items), truth)
  }
}

/** Nine strata of 120 questions (one of 59) with 3-4 labels each, supported 20-90% by stratum, like evals/human-labels.json. */
const NINE_STRATA = [0.9, 0.2, 0.5, 0.8, 0.3, 0.6, 0.9, 0.7, 0.4].map((supported, k) => ({
  size: k === 0 ? 59 : [0, 9, 8, 8, 7, 7, 7, 8, 7][k]!,
  labels: 3 + (k % 2),
  supported,
}))

/** Every interval and test the product reports, over golden-set-shaped populations, seeded. */
export function coverageSimulation({ replicates, resamples }: SimulationSize): SimulationRow[] {
  const rows: SimulationRow[] = []
  const add = (method: string, scenario: string, kind: SimulationRow['kind'], seed: number, trial: (r: Mulberry32) => boolean) =>
    rows.push({ method, scenario, kind, replicates, rate: rate(replicates, seed, trial) })
  const options = { resamples, seed: 1 }
  for (const [n, p] of [
    [13, 0.97],
    [13, 0.5],
    [30, 0.9],
    [30, 0.03],
    [107, 0.99],
    [107, 0.9],
  ] as const) {
    add('Wilson', `hit rate ${p}, n = ${n}`, 'coverage', n * 1000 + p * 100, (random) => {
      const hits = sample(n, (r) => (r.next() < p ? 1 : 0), random).reduce((s, v) => s + v, 0)
      return holds(wilsonInterval(hits, n), p)
    })
  }
  for (const [name, pairs, n] of [
    ['reciprocal rank', RANKS, 13],
    ['reciprocal rank', RANKS, 30],
    ['reciprocal rank', RANKS, 107],
    ['faithfulness', FAITHFUL, 13],
    ['faithfulness', FAITHFUL, 30],
    ['faithfulness', FAITHFUL, 107],
  ] as const) {
    add('bootstrap mean (BCa, widened)', `${name} mean ${meanOf(pairs).toFixed(3)}, n = ${n}`, 'coverage', n, (random) => {
      const values = sample(n, discrete(pairs), random)
      return holds(boundedMeanInterval(bootstrapMeanInterval(values, options)!, values), meanOf(pairs))
    })
  }
  // B changes a share of the questions' reciprocal ranks by +-0.5 with a drift; truth = share * drift.
  for (const [n, changed, drift] of [
    [30, 0.3, 0.25],
    [107, 0.15, 0.25],
    [107, 0.15, 0],
  ] as const) {
    const change = discrete([
      [0, 1 - changed],
      [0.5, (changed * (1 + drift)) / 2],
      [-0.5, (changed * (1 - drift)) / 2],
    ])
    const truth = 0.5 * changed * drift
    add('paired bootstrap', `${changed * 100}% of ${n} questions change, mean delta ${truth}`, 'coverage', n + 7, (random) => {
      const a = sample(n, discrete(RANKS), random)
      const b = a.map((value) => value + change(random))
      return holds(pairedBootstrapDeltaInterval(a, b, options), truth)
    })
  }
  for (const [name, strata] of [
    ['9 strata of 7-59, 3-4 labels each, supported 20-90%', NINE_STRATA],
    [
      '2 strata of 60, 4 labels each, supported 95% and 50%',
      [
        { size: 60, labels: 4, supported: 0.95 },
        { size: 60, labels: 4, supported: 0.5 },
      ],
    ],
  ] as const) {
    add('prediction-powered', name, 'coverage', 99, ppiTrial(strata))
  }
  for (const [n, discordant] of [
    [30, 0.1],
    [107, 0.05],
    [107, 0.3],
  ] as const) {
    add('exact McNemar', `${discordant * 100}% of ${n} questions flip, as many each way`, 'false positives', n + 3, (random) => {
      let down = 0
      let up = 0
      for (let i = 0; i < n; i++) {
        const u = random.next()
        if (u < discordant / 2) down++
        else if (u < discordant) up++
      }
      return exactMcNemar(down, up) < 0.05
    })
  }
  for (const [n, changed] of [
    [13, 0.5],
    [30, 0.3],
    [107, 0.3],
  ] as const) {
    const change = discrete([
      [0, 1 - changed],
      [0.5, changed / 4],
      [-0.5, changed / 4],
      [0.25, changed / 4],
      [-0.25, changed / 4],
    ])
    add('sign-flip permutation', `${changed * 100}% of ${n} questions change, symmetric`, 'false positives', n + 5, (random) => {
      const a = sample(n, discrete(RANKS), random)
      return (
        pairedPermutationTest(
          a,
          a.map((value) => value + change(random)),
          options,
        ) < 0.05
      )
    })
  }
  return rows
}

/** The table as Markdown, the way docs/statistics.md shows it. */
export function simulationTable(rows: readonly SimulationRow[]): string {
  const lines = rows.map((r) => `| ${r.method} | ${r.scenario} | ${r.kind} | ${(r.rate * 100).toFixed(1)}% | ${r.replicates} |`)
  return ['| method | scenario | measures | rate | replicates |', '| --- | --- | --- | --- | --- |', ...lines].join('\n')
}
