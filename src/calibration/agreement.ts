import { stripCitationMarkers } from '../contract/citation-markers.ts'
import type { Interval } from '../contract/interval-schema.ts'
import type { QuestionOutcome } from '../contract/report-schema.ts'
import { wilsonInterval } from '../statistics/wilson-interval.ts'
import { cohenKappa } from './cohen-kappa.ts'
import type { HumanLabel } from './human-labels-schema.ts'
import { kappaInterval } from './kappa-interval.ts'

/** minJudgeAgreement's default, below which the judge's metrics are advisory; the Vitest case names it. */
export const AGREEMENT_THRESHOLD = 0.8

/** How the agreement is judged: the knob minJudgeAgreement, and the kappa bootstrap's resamples and seed. */
export interface AgreementOptions {
  minAgreement: number
  resamples: number
  seed: number
}

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
  /** Wilson 95% interval of the agreement. */
  agreementInterval: Interval | null
  kappa: number | null
  /** Seeded percentile bootstrap 95% interval of kappa over the labelled answers. */
  kappaInterval: Interval | null
  disagreements: Disagreement[]
  /** True when agreement is below options.minAgreement or cannot be computed. */
  advisory: boolean
  reason: string
}

/** The judge's verdict in the human's terms: any unsupported claim means "unsupported". */
export function judgeVerdict(outcome: QuestionOutcome): HumanLabel['label'] {
  return (outcome.unsupportedClaims?.length ?? 0) > 0 ? 'unsupported' : 'supported'
}

/**
 * Human labels against the judge's verdicts on the same answers: agreement, Cohen's kappa, disagreements. Stale
 * labels (answer changed since) are left out. Below options.minAgreement, or with nothing compared, advisory.
 */
export function judgeAgreement(
  labels: readonly HumanLabel[],
  outcomes: readonly QuestionOutcome[],
  options: AgreementOptions,
): Agreement {
  const threshold = options.minAgreement
  const byId = new Map(outcomes.map((o) => [o.id, o]))
  const stale: string[] = []
  const pairs: [HumanLabel, QuestionOutcome][] = []
  for (const label of labels) {
    const outcome = byId.get(label.id)
    // Citation markers aside: the label judged what the answer says, which they do not change.
    if (outcome?.answer == null || stripCitationMarkers(outcome.answer) !== stripCitationMarkers(label.answer))
      stale.push(label.id)
    else pairs.push([label, outcome])
  }
  const verdicts = pairs.map(([label, outcome]) => [label.label, judgeVerdict(outcome)] as const)
  const agreed = verdicts.filter(([h, j]) => h === j).length
  const agreement = pairs.length === 0 ? null : agreed / pairs.length
  const disagreements = pairs.flatMap(([label, outcome]) => {
    const judge = judgeVerdict(outcome)
    if (judge === label.label) return []
    const disputed = judge === 'unsupported' ? (outcome.unsupportedClaims ?? []) : [label.note]
    return [{ id: label.id, human: label.label, judge, disputed }]
  })
  const advisory = agreement === null || agreement < threshold
  const reason =
    agreement === null
      ? 'no current human labels to compare with: run `rag-eval label`'
      : advisory
        ? `the judge agrees with people on ${(agreement * 100).toFixed(0)}% of ${pairs.length} labelled answers, below ${+(threshold * 100).toFixed(2)}%`
        : `the judge agrees with people on ${(agreement * 100).toFixed(0)}% of ${pairs.length} labelled answers`
  return {
    compared: pairs.length,
    stale,
    agreement,
    agreementInterval: wilsonInterval(agreed, pairs.length),
    kappa: cohenKappa(verdicts),
    kappaInterval: kappaInterval(verdicts, options.resamples, options.seed),
    disagreements,
    advisory,
    reason,
  }
}
