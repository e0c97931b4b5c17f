import type { QuestionOutcome } from '../contract/report-schema.ts'
import { cohenKappa } from './cohen-kappa.ts'
import type { HumanLabel } from './human-labels-schema.ts'

/** Below this raw agreement the judge's metrics are advisory: reported, never blocking the gate. */
export const AGREEMENT_THRESHOLD = 0.8

export interface Disagreement {
  id: string
  human: HumanLabel['label']
  judge: HumanLabel['label']
  /** The sentences in dispute: the judge's unsupported claims, or the human's note when the judge found none. */
  disputed: string[]
}

export interface Agreement {
  /** Labels compared (on answers unchanged since labelling). */
  compared: number
  /** Labels left out because the answer changed since it was labelled. */
  stale: string[]
  agreement: number | null
  kappa: number | null
  disagreements: Disagreement[]
  /** True when agreement is below AGREEMENT_THRESHOLD or cannot be computed. */
  advisory: boolean
  reason: string
}

/** The judge's verdict in the human's terms: any unsupported claim means "unsupported". */
export function judgeVerdict(outcome: QuestionOutcome): HumanLabel['label'] {
  return (outcome.unsupportedClaims?.length ?? 0) > 0 ? 'unsupported' : 'supported'
}

/**
 * Agreement between the human labels and the judge's verdicts on the same answers: raw agreement,
 * Cohen's kappa and the disagreements. A label whose answer has changed since it was labelled is
 * stale and left out. Below AGREEMENT_THRESHOLD (or with nothing to compare) the judge is advisory.
 */
export function judgeAgreement(labels: readonly HumanLabel[], outcomes: readonly QuestionOutcome[]): Agreement {
  const byId = new Map(outcomes.map((o) => [o.id, o]))
  const stale: string[] = []
  const pairs: [HumanLabel, QuestionOutcome][] = []
  for (const label of labels) {
    const outcome = byId.get(label.id)
    if (!outcome || outcome.answer !== label.answer) stale.push(label.id)
    else pairs.push([label, outcome])
  }
  const verdicts = pairs.map(([label, outcome]) => [label.label, judgeVerdict(outcome)] as const)
  const agreement = pairs.length === 0 ? null : verdicts.filter(([h, j]) => h === j).length / pairs.length
  const disagreements = pairs.flatMap(([label, outcome]) => {
    const judge = judgeVerdict(outcome)
    if (judge === label.label) return []
    const disputed = judge === 'unsupported' ? (outcome.unsupportedClaims ?? []) : [label.note]
    return [{ id: label.id, human: label.label, judge, disputed }]
  })
  const advisory = agreement === null || agreement < AGREEMENT_THRESHOLD
  const reason =
    agreement === null
      ? 'no current human labels to compare with: run `rag-eval label`'
      : advisory
        ? `the judge agrees with people on ${(agreement * 100).toFixed(0)}% of ${pairs.length} labelled ` +
          `answers, below ${AGREEMENT_THRESHOLD * 100}%`
        : `the judge agrees with people on ${(agreement * 100).toFixed(0)}% of ${pairs.length} labelled answers`
  return { compared: pairs.length, stale, agreement, kappa: cohenKappa(verdicts), disagreements, advisory, reason }
}
