import { describe, expect, it } from 'vitest'
import { pairedComparison } from './paired-comparison.ts'
import { METRICS } from '../contract/metrics/metric-table.ts'
import { pairedEntries, type ScoredQuestion } from '../contract/metrics/metric.ts'

const pairedMetric = (name: string) => pairedEntries(METRICS).find((metric) => metric.name === name)

const options = { resamples: 2000, seed: 1, alpha: 0.05 }
const question = (id: string, fields: Partial<ScoredQuestion>): ScoredQuestion => ({
  id,
  type: 'single',
  hit: true,
  reciprocalRank: null,
  ndcg10: null,
  refused: null,
  faithfulness: null,
  answerRelevancy: null,
  coverage: null,
  ...fields,
})

describe('pairedComparison', () => {
  it('recall: exact McNemar on the discordant questions (5 hit -> miss, 1 miss -> hit: p = 2·7/64), over the questions both runs have', () => {
    // docs/statistics.md's worked example, on 10 questions; none questions and a question only A has are left out.
    const hitsA = [1, 1, 1, 1, 1, 0, 1, 1, 0, 1]
    const hitsB = [0, 0, 0, 0, 0, 1, 1, 1, 0, 1]
    const a = hitsA.map((hit, i) => question(`q-${i}`, { hit: hit === 1 }))
    const b = hitsB.map((hit, i) => question(`q-${i}`, { hit: hit === 1 })).reverse()
    a.push(question('q-none', { type: 'none', hit: false }), question('q-only-a', { hit: true }))
    b.push(question('q-none', { type: 'none', hit: true }))
    const result = pairedComparison(a, b, pairedMetric('recall')!, options)
    expect(result).toMatchObject({
      test: 'mcnemar-exact',
      pairs: 10,
      a: 0.8,
      b: 0.4,
      delta: -0.4,
      discordant: { worse: 5, better: 1 },
      verdict: 'no-difference',
      reason: null,
    })
    expect(result.pValue).toBeCloseTo(14 / 64, 12)
  })

  it('MRR: the sign-flip permutation test, enumerated (4 non-zero differences, all one way: p = 2/16)', () => {
    const rrA = [1, 0.5, 1, 1, 0.333, 0, 1, 0.25, 1, 0.5]
    const rrB = [1, 1, 1, 1, 0.5, 0, 1, 0.5, 1, 1]
    const result = pairedComparison(
      rrA.map((rr, i) => question(`q-${i}`, { reciprocalRank: rr })),
      rrB.map((rr, i) => question(`q-${i}`, { reciprocalRank: rr })),
      pairedMetric('mrr')!,
      options,
    )
    expect(result).toMatchObject({
      test: 'paired-permutation',
      pairs: 10,
      a: 0.6583,
      b: 0.8,
      delta: 0.1417,
      pValue: 0.125,
      discordant: null,
      verdict: 'no-difference',
    })
  })

  it('a false-refusal rate is lower-is-better: more refusals are worse, and significant at 7 to 0 (p = 2/128)', () => {
    const a = Array.from({ length: 7 }, (_, i) => question(`q-${i}`, { refused: false }))
    const b = a.map((q) => ({ ...q, refused: true }))
    const result = pairedComparison(a, b, pairedMetric('falseRefusalRate')!, options)
    expect(result).toMatchObject({ pairs: 7, discordant: { worse: 7, better: 0 }, verdict: 'worse', delta: 1 })
    expect(result.pValue).toBeCloseTo(2 / 128, 12)
  })

  it('no question with a value in both runs: no test, and why', () => {
    const result = pairedComparison(
      [question('q-1', { faithfulness: 0.9 })],
      [question('q-1', {})],
      pairedMetric('faithfulness')!,
      options,
    )
    expect(result).toEqual({
      test: 'paired-permutation',
      pairs: 0,
      a: null,
      b: null,
      delta: null,
      deltaInterval: null,
      pValue: null,
      discordant: null,
      verdict: null,
      reason: 'no question has a value in both runs',
    })
  })
})
