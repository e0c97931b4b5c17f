import { describe, expect, it } from 'vitest'
import { loadProjectConfig } from '../config/load-project-config.ts'
import type { RagSystem, RetrievedChunk } from '../system/rag-system.ts'
import { evaluate } from '../run/evaluate.ts'
import { fisherLowerTail } from '../statistics/fisher-exact.ts'
import { trialInterval } from '../statistics/trial-interval.ts'
import { evaluateGate } from './gate.ts'
import { runFailures } from './run-failures.ts'
import { baselineFromReport } from './baseline-from-report.ts'
import { trialsNote } from '../vitest/question-case-plan.ts'
import { renderMarkdown } from '../report/render-markdown.ts'
import { renderJobSummary } from '../report/render-job-summary.ts'
import { renderTerminalSummary } from '../report/render-terminal.ts'
import { compareReports } from '../compare/compare-reports.ts'

/** The tiny project: g-1 single, g-2 multi, g-3 none over three documents. */
const tiny = await loadProjectConfig({ overrides: { corpus: 'fixtures/corpora/tiny', goldenSet: 'fixtures/golden/valid.json' } })

const TRACES: RetrievedChunk = {
  chunkId: 't-001#0',
  docId: 't-001',
  score: 1,
  tokens: 20,
  text: 'Traces are kept for 15 days on Team and 30 days on Business.',
}
const DESKS: RetrievedChunk = {
  chunkId: 't-003#0',
  docId: 't-003',
  score: 1,
  tokens: 12,
  text: 'Desks are cleaned every evening.',
}

/** g-1 finds its document on the trials `hits` accepts; g-2 always misses its second document; g-3 always refuses. */
const asked: (number | undefined)[] = []
const systemHitting = (hits: (trial: number) => boolean): RagSystem => ({
  name: 'trial-aware',
  async answer({ id, trial }) {
    asked.push(trial)
    if (id === 'g-3')
      return {
        ranked: [DESKS],
        context: [DESKS],
        answer: 'I could not find the answer to this question in the provided material.',
      }
    const chunk = id === 'g-1' && !hits(trial ?? 0) ? DESKS : TRACES
    return { ranked: [chunk], context: [chunk], answer: chunk.text }
  },
})
const alternating = systemHitting((trial) => trial % 2 === 0)
const five = { EVAL_TRIALS: '5' }

describe('trials', () => {
  it('asks every question n times, averages each metric over its trials and names the flaky question with its pass count', async () => {
    asked.length = 0
    const report = await evaluate(tiny, { tier: 'full', env: five, system: alternating, baselineRoot: null })
    expect(asked.filter((t) => t === 3)).toHaveLength(3)
    expect(asked).toHaveLength(15)
    const g1 = report.questions.find((q) => q.id === 'g-1')!
    expect(g1.trials).toMatchObject({
      passed: [true, false, true, false, true],
      passRate: 0.6,
      passAtK: true,
      passHatK: false,
      flaky: true,
    })
    expect(g1.trials!.varied.slice(0, 3)).toEqual(['verdict', 'ranking', 'recall'])
    // Wilson's 95% interval of 3 of 5 hits.
    expect(g1.trials!.metrics.recall).toEqual({ mean: 0.6, low: 0.2307, high: 0.8824 })
    // Recall over the answerable questions: g-1's 0.6 and g-2's 0.
    expect(report.summary.recall).toBe(0.3)
    expect(report.trials).toMatchObject({ trials: 5, flaky: [{ id: 'g-1', passed: 3, of: 5 }], flakyRate: 0.3333 })
    expect(report.trials!.underpowered).toMatch(/^3 questions x 5 trials detect no drop at all in the pass rate/)
    expect(runFailures(report)).toEqual([])
    expect(renderMarkdown(report)).toContain('- g-1: passed 3 of 5 trials; varied: verdict, ranking, recall, ')
    expect(renderJobSummary(report, null)).toContain(
      '### Flaky questions (their outcome differs across trials)\n\n- g-1: passed 3 of 5 trials; varied: verdict, ranking, recall, ',
    )
    expect(renderTerminalSummary(report)).toContain(
      'Trials (5 per question)\nFlaky (the outcome differs across trials): 1 question(s), rate 0.3333.\n- g-1: passed 3 of 5',
    )
    const once = await evaluate(tiny, { tier: 'full', env: {}, system: alternating, baselineRoot: null })
    const side = (source: string) => ({ source, kind: 'report' as const, env: {}, report: null })
    const compared = compareReports(once, report, { a: side('once.json'), b: side('five.json') })
    expect(compared.flaky).toEqual({ a: [], b: report.trials!.flaky })
    expect(trialsNote(g1)).toEqual({
      type: 'warning',
      message: `passed 3 of 5 trials; flaky: ${g1.trials!.varied.join(', ')} varied across trials`,
    })
    const gateOf = (current: typeof report, accepted: typeof report) =>
      evaluateGate(current, baselineFromReport(accepted), 'baseline', 0.01).questions.find((q) => q.id === 'g-1')
    // Against one passing trial (1 of 1), 3 of 5 holds: p = P(X <= 3) = 1 - P(X = 4) = 1 - 4/6.
    expect(gateOf(report, once)).toEqual({ id: 'g-1', status: 'held', baselinePassed: true, currentPassed: true })
    // 5 of 5 accepted: 3 of 5 holds (p = C(8, 3) / C(10, 5) = 0.222), 0 of 5 regresses (p = 1 / C(10, 5) = 0.004).
    const always = await evaluate(tiny, { tier: 'full', env: five, system: systemHitting(() => true), baselineRoot: null })
    const never = await evaluate(tiny, { tier: 'full', env: five, system: systemHitting(() => false), baselineRoot: null })
    expect(baselineFromReport(always).questions.find((q) => q.id === 'g-1')?.passedTrials).toEqual({ passed: 5, of: 5 })
    expect(gateOf(report, always)).toEqual({ id: 'g-1', status: 'held', baselinePassed: true, currentPassed: true })
    expect(gateOf(never, always)).toEqual({ id: 'g-1', status: 'regressed', baselinePassed: true, currentPassed: false })
    expect(gateOf(always, never)).toEqual({ id: 'g-1', status: 'improved', baselinePassed: false, currentPassed: true })
    // A run of one trial against a baseline of five: the baseline passed when it passed at least half its trials.
    expect(gateOf(once, report)).toEqual({ id: 'g-1', status: 'held', baselinePassed: true, currentPassed: true })
    expect(gateOf(once, never)).toEqual({ id: 'g-1', status: 'improved', baselinePassed: false, currentPassed: true })
    const limited = await evaluate(tiny, {
      tier: 'full',
      env: { ...five, EVAL_MAX_FLAKY_RATE: '0.2' },
      system: alternating,
      baselineRoot: null,
    })
    expect(runFailures(limited)).toEqual([{ name: 'flaky rate (limit 0.2)', baseline: 0.2, current: 0.3333, delta: 0.1333 }])
  })

  it('with one trial, the system is asked once without a trial index and the report has no trials', async () => {
    asked.length = 0
    const report = await evaluate(tiny, { tier: 'full', env: {}, system: alternating, baselineRoot: null })
    expect(asked).toEqual([undefined, undefined, undefined])
    expect(report.trials).toBeUndefined()
    expect(report.questions.map((q) => q.trials)).toEqual([undefined, undefined, undefined])
  })

  it("Fisher's one-sided test and the interval across trials, worked by hand", () => {
    // 5 of 5 then 0 of 5: 1 / C(10, 5); then 2 of 5: C(7, 5) / C(10, 5); 1 of 1 then 0 of 5: 1 / 6.
    expect(fisherLowerTail(5, 5, 0, 5)).toBeCloseTo(1 / 252, 12)
    expect(fisherLowerTail(5, 5, 2, 5)).toBeCloseTo(21 / 252, 12)
    expect(fisherLowerTail(1, 1, 0, 5)).toBeCloseTo(1 / 6, 12)
    expect(fisherLowerTail(0, 5, 5, 5)).toBeCloseTo(1, 12)
    // 0.2, 0.4, 0.6: mean 0.4, s 0.2, t(0.975, 2) = 0.95 / sqrt(2 · 0.975 · 0.025) = 4.3027: 0.4 ± t · 0.2 / sqrt(3).
    const interval = trialInterval([0.2, 0.4, 0.6])!
    expect(interval.mean).toBeCloseTo(0.4, 12)
    expect(interval.high - interval.mean).toBeCloseTo(((0.95 / Math.sqrt(2 * 0.975 * 0.025)) * 0.2) / Math.sqrt(3), 12)
    expect(() => fisherLowerTail(2, 1, 0, 1)).toThrow(
      'fisherLowerTail: expected whole counts with a <= nA and b <= nB, got 2/1 and 0/1',
    )
  })
})
