import { describe, expect, it } from 'vitest'
import { loadProjectConfig } from '../config/load-project-config.ts'
import { evaluate } from '../run/evaluate.ts'
import { NO_ANSWERS_REASON, summarise } from './summarise.ts'

const project = await loadProjectConfig()
const run = await evaluate(project, { tier: 'retrieval', env: {}, baselineRoot: null })
const statistics = { resamples: 2000, alpha: 0.05 }

describe('summary intervals and the minimum detectable drop', () => {
  it('recall of 20 hits in 20 questions: the Wilson interval 0.8389 to 1 (Newcombe 1998, Table II, mirrored from 0/20)', () => {
    const twenty = run.questions.filter((q) => q.type === 'single' && q.hit).slice(0, 20)
    expect(twenty).toHaveLength(20)
    const summary = summarise(twenty, null, 0, NO_ANSWERS_REASON, statistics)
    expect(summary.intervals.recall).toEqual({ low: 0.8389, high: 1, method: 'wilson' })
    expect(summary.intervals['recallByType.single']).toEqual({ low: 0.8389, high: 1, method: 'wilson' })
    // No multi question: no mean, so no interval either.
    expect(summary.intervals['recallByType.multi']).toBeUndefined()
  })

  it("MRR: the seeded bootstrap over questions, BCa and widened for 10 values (docs/statistics.md's example: 0.354 to 0.902)", () => {
    const ranks = [1, 0.5, 1, 1, 0.333, 0, 1, 0.25, 1, 0.5]
    const ten = run.questions
      .filter((q) => q.type === 'single')
      .slice(0, 10)
      .map((q, i) => ({ ...q, reciprocalRank: ranks[i]! }))
    const summary = summarise(ten, null, 0, NO_ANSWERS_REASON, statistics)
    expect(summary.intervals.mrr).toEqual({
      // The plain percentile interval is 0.425 to 0.883; the widening alone is sqrt(10/9) * t_9 / z = 1.2166.
      low: 0.3541,
      high: 0.9016,
      method: 'bootstrap-percentile',
    })
    // Seeded: the same values give the same interval, so reports stay byte-identical.
    expect(JSON.stringify(summarise(ten, null, 0, NO_ANSWERS_REASON, statistics))).toBe(JSON.stringify(summary))
  })

  it('every mean of the run has an interval that contains it, and the golden set resolves recall drops of 0.072 (docs table: 107 questions)', () => {
    const { summary } = run
    expect(summary.answerable).toBe(107)
    expect(summary.minimumDetectableRecallDrop).toBeCloseTo(0.072, 3)
    for (const path of ['recall', 'recallByType.multi', 'recallAtK', 'mrr', 'mrrByType.contradiction', 'ndcg10', 'docNdcg10']) {
      const value = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], summary) as number
      const interval = summary.intervals[path]!
      expect(interval.low).toBeLessThanOrEqual(value)
      expect(interval.high).toBeGreaterThanOrEqual(value)
    }
    expect(summary.intervals.recall!.method).toBe('wilson')
    expect(summary.intervals.mrr!.method).toBe('bootstrap-percentile')
  })

  it('too few questions: no detectable drop, with the reason', () => {
    const three = run.questions.filter((q) => q.type === 'single').slice(0, 3)
    const summary = summarise(three, null, 0, NO_ANSWERS_REASON, statistics)
    expect(summary.minimumDetectableRecallDrop).toBeNull()
    expect(summary.notComputed.minimumDetectableRecallDrop).toBe(
      'even losing every hit (recall 1) is not detectable on 3 answerable questions at 80% power',
    )
  })
})
