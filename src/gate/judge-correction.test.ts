import { describe, expect, it } from 'vitest'
import { loadProjectConfig } from '../config/load-project-config.ts'
import type { MetricVerdict } from '../contract/gate-schema.ts'
import type { JudgeCorrectedRate, Report } from '../contract/report-schema.ts'
import { evaluate } from '../run/evaluate.ts'
import { baselineFromReport } from './baseline-files.ts'
import { evaluateGate } from './gate.ts'
import { correctedVerdict } from './judge-correction.ts'

const rate = (estimate: number, low: number, high: number, rectifier: number): JudgeCorrectedRate => ({
  judgeMean: round(estimate + rectifier),
  estimate,
  interval: { low, high, method: 'prediction-powered' },
  rectifier,
  questions: 100,
  labelled: 30,
  means: 'test',
  reason: null,
})
const round = (value: number) => Math.round(value * 1e4) / 1e4
const reportWith = (correction: 'none' | 'ppi', faithfulness: JudgeCorrectedRate) =>
  ({
    config: { judgeCorrection: correction },
    calibration: { judgeCorrected: { faithfulness, coverage: faithfulness, refusalCorrectness: faithfulness } },
  }) as unknown as Report
// The judge's faithfulness fell from 0.9 to 0.88: beyond the tolerance 0.01, so regressed on the judge's own means.
const verdict = { name: 'faithfulness', status: 'regressed', baseline: 0.9, current: 0.88, delta: -0.02 } as MetricVerdict

describe('correctedVerdict (judgeCorrection ppi)', () => {
  it('leaves the verdict alone under none, and for a metric without a corrected estimate', () => {
    expect(correctedVerdict(verdict, reportWith('none', rate(0.78, 0.7, 0.78, 0.1)), 0.01)).toBe(verdict)
    const relevancy = { ...verdict, name: 'answerRelevancy' }
    expect(correctedVerdict(relevancy, reportWith('ppi', rate(0.78, 0.7, 0.78, 0.1)), 0.01)).toBe(relevancy)
  })
  it('puts the baseline on the corrected scale and regresses only when the whole interval lies below it minus the tolerance', () => {
    // Baseline 0.9 - rectifier 0.1 = 0.8; the bar is 0.8 - 0.01 = 0.79.
    expect(correctedVerdict(verdict, reportWith('ppi', rate(0.78, 0.7, 0.86, 0.1)), 0.01)).toMatchObject({
      status: 'held',
      judgeCorrection: { estimate: 0.78, baseline: 0.8, interval: { low: 0.7, high: 0.86 } },
    })
    expect(correctedVerdict(verdict, reportWith('ppi', rate(0.74, 0.7, 0.78, 0.1)), 0.01).status).toBe('regressed')
    // Improved when the whole interval lies above 0.8 + 0.01.
    expect(correctedVerdict(verdict, reportWith('ppi', rate(0.85, 0.82, 0.88, 0.1)), 0.01).status).toBe('improved')
  })
  it('blocks the gate on a corrected regression even while the judge is advisory', async () => {
    const project = await loadProjectConfig()
    const accepted = await evaluate(project, { tier: 'full', env: {} })
    const acceptedFaithfulness = accepted.summary.faithfulness!
    const current: Report = {
      ...accepted,
      config: { ...accepted.config, judgeCorrection: 'ppi' },
      summary: { ...accepted.summary, faithfulness: acceptedFaithfulness - 0.2 },
      calibration: {
        ...accepted.calibration!,
        advisory: true,
        reason: 'agrees on 67%',
        // The judge runs 0.2 above people: the corrected baseline is acceptedFaithfulness - 0.2, and the interval lies well below.
        judgeCorrected: {
          ...accepted.calibration!.judgeCorrected!,
          faithfulness: rate(
            round(acceptedFaithfulness - 0.4),
            round(acceptedFaithfulness - 0.45),
            round(acceptedFaithfulness - 0.35),
            0.2,
          ),
        },
      },
    }
    const gate = evaluateGate(current, baselineFromReport(accepted), 'baseline', 0.01)
    expect(gate.passed).toBe(false)
    expect(gate.regressions.map((r) => r.name)).toEqual(['faithfulness'])
    expect(gate.advisory).toEqual([])
    expect(gate.advisoryReason).toBe('agrees on 67%')
  })
})
