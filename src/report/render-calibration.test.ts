import { describe, expect, it } from 'vitest'
import type { Calibration, JudgeCorrectedRate } from '../contract/report-schema.ts'
import { renderCalibration } from './render-calibration.ts'

const rate = (judgeMean: number, estimate: number | null, labelled: number): JudgeCorrectedRate => ({
  judgeMean,
  estimate,
  interval: estimate === null ? null : { low: estimate - 0.05, high: estimate + 0.05, method: 'prediction-powered' },
  rectifier: estimate === null ? null : judgeMean - estimate,
  questions: 120,
  labelled,
  means: 'test',
  reason: estimate === null ? '1 current human label(s) carry this rate; the correction needs at least 2' : null,
})

describe('renderCalibration', () => {
  it('shows agreement and kappa with their intervals, and each judge-derived rate beside its corrected estimate', () => {
    const calibration: Calibration = {
      labelsFile: 'evals/human-labels.json',
      judge: 'offline-lexical',
      scripted: false,
      compared: 30,
      stale: [],
      agreement: 0.6667,
      kappa: 0,
      minAgreement: 0.85,
      agreementInterval: { low: 0.4878, high: 0.8077, method: 'wilson' },
      kappaInterval: { low: 0, high: 0, method: 'bootstrap-percentile' },
      judgeCorrected: {
        faithfulness: rate(1, 0.8139, 30),
        refusalCorrectness: rate(0.675, 0.675, 30),
        coverage: rate(0.5, null, 1),
      },
      disagreements: [],
      advisory: true,
      reason: 'the judge agrees with people on 67% of 30 labelled answers, below 85%',
    }
    expect(renderCalibration(calibration)).toEqual([
      "judge offline-lexical vs 30 human label(s) in evals/human-labels.json: agreement 67% (95% CI 48.8% to 80.8%, Wilson), Cohen's kappa 0 (95% CI 0 to 0, bootstrap); minJudgeAgreement 85%",
      "ADVISORY: the judge's metrics (faithfulness, answer relevancy, coverage, citation precision, citation recall) do not block the gate: the judge agrees with people on 67% of 30 labelled answers, below 85%",
      "judge-derived rates, the judge's own mean beside the estimate corrected by the human labels (prediction-powered, docs/judging.md):",
      '  faithfulness         judge 1.0000  corrected 0.8139 (95% CI 0.7639 to 0.8639, PPI), 30 of 120 labelled',
      '  refusal correctness  judge 0.6750  corrected 0.6750 (95% CI 0.6250 to 0.7250, PPI), 30 of 120 labelled',
      '  coverage             judge 0.5000  not corrected: 1 current human label(s) carry this rate; the correction needs at least 2',
    ])
    // Under judgeCorrection 'ppi' the corrected metrics are gated on their estimates: only the others stay advisory.
    expect(renderCalibration(calibration, 'ppi')[1]).toBe(
      "ADVISORY: the judge's metrics (answer relevancy, coverage, citation precision, citation recall) do not block the gate: the judge agrees with people on 67% of 30 labelled answers, below 85%; faithfulness is gated on the corrected estimate (judgeCorrection ppi)",
    )
  })
})
