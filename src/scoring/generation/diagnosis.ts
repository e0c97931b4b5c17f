import { FAITHFULNESS } from '../../contract/metrics/metric-table.ts'
import type { ScoredQuestion } from '../../contract/metrics/metric.ts'

/** Faithfulness at or above this counts as "the model stayed with its context" in the diagnosis. */
export const FAITHFUL_THRESHOLD = 0.8

export type Diagnosis = 'healthy' | 'model ignores context' | 'retrieval misses' | 'both broken'

/**
 * The recall x faithfulness diagnosis of an answerable question (docs/metrics.md). Retrieval is fine when the
 * context hit; the model is fine when it answered with faithfulness >= FAITHFUL_THRESHOLD or refused on a
 * miss (refusing despite a hit ignores the context). null when faithfulness is unknown or for a none question.
 * `refused`: the judge's refusal verdict (an unclear refusal counts as an answer).
 */
export function diagnose(question: ScoredQuestion & { hit: boolean }, refused: boolean): Diagnosis | null {
  if (question.type === 'none') return null
  const supported = FAITHFULNESS.value(question)
  const modelFine = refused ? !question.hit : supported !== null ? supported >= FAITHFUL_THRESHOLD : null
  if (modelFine === null) return null
  if (question.hit) return modelFine ? 'healthy' : 'model ignores context'
  return modelFine ? 'retrieval misses' : 'both broken'
}
