import type { Interval } from '../contract/interval-schema.ts'
import type { Calibration, QuestionOutcome } from '../contract/report-schema.ts'
import { round4 } from '../statistics/descriptive.ts'
import { judgeAgreement, type AgreementOptions } from './agreement.ts'
import type { HumanLabel } from './human-labels-schema.ts'
import { judgeCorrectedRates } from './judge-corrected-rates.ts'

const rounded = (interval: Interval | null): Interval | null =>
  interval === null ? null : { ...interval, low: round4(interval.low), high: round4(interval.high) }

/**
 * The report's calibration block: the judge against the human labels, with intervals, and the judge-derived
 * rates corrected by them; without labels the judge is advisory. `scripted`: verdicts from a scripted
 * recording, whose agreement must never be quoted as a model judge's.
 */
export function calibrate(
  labels: readonly HumanLabel[] | null,
  outcomes: readonly QuestionOutcome[],
  labelsFile: string,
  judge: string,
  scripted: boolean,
  options: AgreementOptions,
): Calibration {
  const result = judgeAgreement(labels ?? [], outcomes, options)
  const reason = labels === null ? `no human labels (${labelsFile}): run \`rag-eval label\`` : result.reason
  const stale = new Set(result.stale)
  return {
    labelsFile,
    judge,
    scripted,
    compared: result.compared,
    stale: result.stale,
    agreement: result.agreement === null ? null : round4(result.agreement),
    kappa: result.kappa === null ? null : round4(result.kappa),
    minAgreement: options.minAgreement,
    agreementInterval: rounded(result.agreementInterval),
    kappaInterval: rounded(result.kappaInterval),
    judgeCorrected: judgeCorrectedRates(
      outcomes,
      (labels ?? []).filter((label) => !stale.has(label.id)),
    ),
    disagreements: result.disagreements,
    advisory: result.advisory,
    reason: scripted ? `${reason} (against a scripted recording, not a model)` : reason,
  }
}
