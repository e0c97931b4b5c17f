import { describe, expect, it } from 'vitest'
import type { EvalConfig } from '../contract/eval-config-schema.ts'
import { loadProjectConfig } from '../config/load-project-config.ts'
import type { QuestionOutcome, Report } from '../contract/report-schema.ts'
import { evaluate } from '../run/evaluate.ts'
import { NO_ANSWERS_REASON, summarise } from '../summary/summarise.ts'
import { baselineFromReport } from './baseline-files.ts'
import { evaluateGate } from './gate.ts'
import { policyStatus } from './metric-verdict.ts'

const project = await loadProjectConfig()
// The retrieval tier: a question passes exactly when its context hits, and the summary is retrieval only.
const accepted = await evaluate(project, { tier: 'retrieval', env: {}, baselineRoot: null })
const baseline = baselineFromReport(accepted)

/** The accepted run with its questions changed, summarised again as a run would be, under a gate policy. */
function changed(change: (q: QuestionOutcome) => QuestionOutcome, policy: EvalConfig['gatePolicy']): Report {
  const questions = accepted.questions.map(change)
  const summary = summarise(questions, null, 0, NO_ANSWERS_REASON, { resamples: 2000, alpha: 0.05 })
  return { ...accepted, questions, summary, config: { ...accepted.config, gatePolicy: policy } }
}

const gateOf = (report: Report) => evaluateGate(report, baseline, 'baseline', 0.01)
const verdict = (report: Report, name: string) => gateOf(report).metrics.find((m) => m.name === name)!

describe('gate policy: a drop beyond the tolerance that is not significant', () => {
  // Two hits lost of 107: recall falls by 2/107 = 0.0187 (beyond 0.01), but 2 to 0 discordant questions
  // is a coin landing the same way twice: exact McNemar p = 2 · (1/2)^2 = 0.5.
  const lost = accepted.questions
    .filter((q) => q.type === 'single' && q.hit)
    .slice(0, 2)
    .map((q) => q.id)
  const twoLost = (q: QuestionOutcome) => (lost.includes(q.id) ? { ...q, hit: false } : q)

  it("fails under 'tolerance' (the default), on recall and on each lost question", () => {
    const gate = gateOf(changed(twoLost, 'tolerance'))
    expect(gate.passed).toBe(false)
    expect(gate.regressions.map((r) => r.name)).toEqual(['recall', 'recall.single', ...lost.map((id) => `question ${id}`)])
    expect(verdict(changed(twoLost, 'tolerance'), 'recall')).toMatchObject({
      status: 'regressed',
      delta: -0.0187,
      test: 'mcnemar-exact',
      pairs: 107,
      pValue: 0.5,
      significance: 'none',
    })
  })

  it("passes under 'both': beyond the tolerance but not significant; the lost questions are reported, not failed", () => {
    const report = changed(twoLost, 'both')
    const gate = gateOf(report)
    expect(gate.passed).toBe(true)
    expect(gate.regressions).toEqual([])
    expect(gate).toMatchObject({ policy: 'both', alpha: 0.05 })
    expect(verdict(report, 'recall')).toMatchObject({ status: 'held', delta: -0.0187, pValue: 0.5 })
    expect(gate.questions.filter((q) => q.status === 'regressed').map((q) => q.id)).toEqual(lost)
  })

  it("passes under 'significant'", () => {
    expect(gateOf(changed(twoLost, 'significant')).passed).toBe(true)
  })
})

describe('gate policy: a significant drop within the tolerance', () => {
  // Every ranked answer's reciprocal rank 0.005 lower: MRR falls by under 0.005 (within 0.01), but all
  // the non-zero paired differences point the same way. Of 2,000 random sign flips none reaches the
  // observed sum (that takes all ~100 signs alike), so p = (0 + 1)/(2000 + 1).
  const slightlyLower = (q: QuestionOutcome) =>
    q.reciprocalRank !== null && q.reciprocalRank > 0 ? { ...q, reciprocalRank: q.reciprocalRank - 0.005 } : q

  it("fails under 'significant', on MRR alone", () => {
    const report = changed(slightlyLower, 'significant')
    const gate = gateOf(report)
    expect(gate.passed).toBe(false)
    expect(gate.regressions.map((r) => r.name)).toEqual(['mrr'])
    const mrr = verdict(report, 'mrr')
    expect(mrr).toMatchObject({ status: 'regressed', test: 'paired-permutation', significance: 'drop' })
    expect(mrr.pValue).toBe(1 / 2001)
    expect(mrr.delta!).toBeGreaterThanOrEqual(-0.005)
    expect(mrr.deltaInterval).toEqual({ low: mrr.delta, high: mrr.delta, method: 'bootstrap-percentile' })
  })

  it("passes under 'tolerance' and under 'both'", () => {
    expect(gateOf(changed(slightlyLower, 'tolerance')).passed).toBe(true)
    expect(gateOf(changed(slightlyLower, 'both')).passed).toBe(true)
    expect(verdict(changed(slightlyLower, 'both'), 'mrr')).toMatchObject({ status: 'held', significance: 'drop' })
  })
})

describe('policyStatus', () => {
  it.each([
    ['regressed', 'none', 'tolerance', 'regressed'],
    ['held', 'drop', 'tolerance', 'held'],
    ['held', 'drop', 'significant', 'regressed'],
    ['regressed', 'none', 'significant', 'held'],
    ['improved', 'rise', 'both', 'improved'],
    ['regressed', 'none', 'both', 'held'],
    ['held', 'drop', 'both', 'held'],
    ['regressed', null, 'both', 'regressed'],
    ['not-comparable', 'drop', 'significant', 'not-comparable'],
  ] as const)('tolerance %s, significance %s, policy %s: %s', (byTolerance, significance, policy, expected) => {
    expect(policyStatus(byTolerance, significance, policy)).toBe(expected)
  })
})
