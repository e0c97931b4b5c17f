import type { Calibration, QuestionOutcome } from '../contract/report-schema.ts'
import { round4 } from '../statistics/descriptive.ts'
import { judgeAgreement } from './agreement.ts'
import type { HumanLabel } from './human-labels-schema.ts'

/**
 * The report's calibration block: the judge's verdicts against the human labels. Without labels the
 * judge is uncalibrated, hence advisory. `scripted` marks verdicts replayed from a scripted recording,
 * whose agreement must never be quoted as a model judge's.
 */
export function calibrate(
  labels: readonly HumanLabel[] | null,
  outcomes: readonly QuestionOutcome[],
  labelsFile: string,
  judge: string,
  scripted: boolean,
): Calibration {
  const result = judgeAgreement(labels ?? [], outcomes)
  const reason = labels === null ? `no human labels (${labelsFile}): run \`rag-eval label\`` : result.reason
  return {
    labelsFile,
    judge,
    scripted,
    compared: result.compared,
    stale: result.stale,
    agreement: result.agreement === null ? null : round4(result.agreement),
    kappa: result.kappa === null ? null : round4(result.kappa),
    disagreements: result.disagreements,
    advisory: result.advisory,
    reason: scripted ? `${reason} (against a scripted recording, not a model)` : reason,
  }
}
