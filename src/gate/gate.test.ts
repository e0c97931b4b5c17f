import { describe, expect, it } from 'vitest'
import type { Report } from '../contract/report-schema.ts'
import { loadProjectConfig } from '../config/load-project-config.ts'
import { evaluate } from '../run/evaluate.ts'

const project = await loadProjectConfig()
import { baselineFromReport } from './baseline-files.ts'
import { evaluateGate, staleness } from './gate.ts'
import { compareMetric } from './regression.ts'

describe('compareMetric', () => {
  it('holds a drop of exactly the tolerance and regresses beyond it', () => {
    expect(compareMetric(0.92, 0.93, 0.01).status).toBe('held')
    expect(compareMetric(0.9199, 0.93, 0.01)).toEqual({
      status: 'regressed',
      baseline: 0.93,
      current: 0.9199,
      delta: -0.0101,
      reason: null,
    })
  })
  it('improves beyond the tolerance', () => {
    expect(compareMetric(0.95, 0.93, 0.01)).toEqual({
      status: 'improved',
      baseline: 0.93,
      current: 0.95,
      delta: 0.02,
      reason: null,
    })
  })
  it('is not comparable when a side is null', () => {
    expect(compareMetric(null, 0.9, 0.01)).toEqual({
      status: 'not-comparable',
      baseline: 0.9,
      current: null,
      delta: null,
      reason: 'not computed in this run',
    })
  })
})

describe('evaluateGate', () => {
  // The repository's run in a tier under an environment, evaluated once for every test that asks: they only read it.
  const runs = new Map<string, Promise<Report>>()
  const run = (tier: Report['tier'], env: Record<string, string>): Promise<Report> => {
    const key = JSON.stringify([tier, env])
    if (!runs.has(key)) runs.set(key, evaluate(project, { tier, env }))
    return runs.get(key)!
  }
  const runWith = (env: Record<string, string>) => run('full', env)
  // In the retrieval tier a question passes exactly when its context hits: the cleanest place to count lost questions.
  const runRetrieval = (env: Record<string, string>) => run('retrieval', env)
  const withHit = (report: Report, id: string, hit: boolean): Report => ({
    ...report,
    questions: report.questions.map((q) => (q.id === id ? { ...q, hit } : q)),
  })

  it('passes against a baseline made from the same run', async () => {
    const report = await runWith({})
    const gate = evaluateGate(report, baselineFromReport(report), 'baseline', 0.01)
    expect(gate.passed).toBe(true)
    expect(gate.regressions).toEqual([])
    expect(gate.stale).toEqual([])
  })

  it('names recall and each lost question when the context budget shrinks, and names the stale config', async () => {
    const accepted = await runRetrieval({})
    const shrunk = await runRetrieval({ EVAL_CONTEXT_BUDGET: '120' })
    const gate = evaluateGate(shrunk, baselineFromReport(accepted), 'baseline', 0.01)
    expect(gate.passed).toBe(false)
    const recall = gate.regressions.find((r) => r.name === 'recall')!
    expect(recall).toEqual({
      name: 'recall',
      baseline: accepted.summary.recall,
      current: shrunk.summary.recall,
      delta: expect.any(Number),
    })
    expect(recall.delta).toBeCloseTo(shrunk.summary.recall! - accepted.summary.recall!, 4)
    const lost = accepted.questions.filter((q, i) => q.hit && !shrunk.questions[i]!.hit).map((q) => `question ${q.id}`)
    expect(lost.length).toBeGreaterThan(0)
    expect(gate.regressions.filter((r) => r.name.startsWith('question ')).map((r) => r.name)).toEqual(lost)
    expect(gate.stale).toEqual(['budgetTokens: baseline 600, this run 120'])
  })

  it('names a baseline measured under another relevantGrade stale; an absent relevantGrade is 1', async () => {
    const accepted = await runRetrieval({})
    const baseline = baselineFromReport(accepted)
    const at = (relevantGrade: number) => ({ ...accepted, config: { ...accepted.config, relevantGrade } })
    expect(staleness(at(1), baseline)).toEqual([])
    expect(staleness(at(2), baseline)).toEqual(['relevantGrade: baseline 1, this run 2'])
  })

  it('fails on a single lost question even when every mean holds within the tolerance', async () => {
    const accepted = await runRetrieval({})
    const hitId = accepted.questions.find((q) => q.hit)!.id
    const missId = accepted.questions.find((q) => q.type !== 'none' && !q.hit)!.id
    // One hit lost, one miss gained: recall is unchanged, but the lost question is a regression.
    const current = withHit(withHit(accepted, hitId, false), missId, true)
    const gate = evaluateGate(current, baselineFromReport(accepted), 'baseline', 0.01)
    expect(gate.regressions).toEqual([{ name: `question ${hitId}`, baseline: 1, current: 0, delta: -1 }])
    expect(gate.questions.find((q) => q.id === missId)!.status).toBe('improved')
  })

  it('does not pass without a baseline', async () => {
    const report = await runWith({})
    expect(evaluateGate(report, null, 'baseline', 0.01)).toEqual({
      baseline: null,
      tolerance: 0.01,
      policy: 'tolerance',
      alpha: 0.05,
      passed: false,
      regressions: [],
      advisory: [],
      advisoryReason: report.calibration!.advisory ? report.calibration!.reason : null,
      metrics: [],
      questions: [],
      stale: [],
      problems: [],
    })
  })

  describe('advisory mode: a judge that people disagree with cannot block', () => {
    const withFaithfulness = (report: Report, value: number): Report => ({
      ...report,
      summary: { ...report.summary, faithfulness: value },
    })
    const withCalibration = (report: Report, advisory: boolean): Report => ({
      ...report,
      calibration: {
        ...report.calibration!,
        advisory,
        agreement: advisory ? 0.7 : 0.9,
        reason: advisory ? 'agrees on 70%' : 'agrees on 90%',
      },
    })
    it('reports a judge-derived regression as advisory and passes when agreement is below 0.8', async () => {
      const accepted = await runWith({})
      const current = withCalibration(withFaithfulness(accepted, accepted.summary.faithfulness! - 0.2), true)
      const gate = evaluateGate(current, baselineFromReport(accepted), 'baseline', 0.01)
      expect(gate.passed).toBe(true)
      expect(gate.regressions).toEqual([])
      expect(gate.advisory.map((r) => r.name)).toEqual(['faithfulness'])
      expect(gate.advisoryReason).toBe('agrees on 70%')
    })
    it('blocks on the same regression once the judge is calibrated', async () => {
      const accepted = await runWith({})
      const current = withCalibration(withFaithfulness(accepted, accepted.summary.faithfulness! - 0.2), false)
      const gate = evaluateGate(current, baselineFromReport(accepted), 'baseline', 0.01)
      expect(gate.passed).toBe(false)
      expect(gate.regressions.map((r) => r.name)).toEqual(['faithfulness'])
      expect(gate.advisory).toEqual([])
    })
    it('never makes a retrieval metric advisory', async () => {
      const accepted = await runWith({})
      const current = withCalibration({ ...accepted, summary: { ...accepted.summary, mrr: accepted.summary.mrr! - 0.2 } }, true)
      expect(evaluateGate(current, baselineFromReport(accepted), 'baseline', 0.01).regressions.map((r) => r.name)).toEqual([
        'mrr',
      ])
    })
  })
})
