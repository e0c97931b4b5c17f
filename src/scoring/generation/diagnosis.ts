import {
  CLAIM_RECALL,
  CONTEXT_UTILISATION,
  FAITHFULNESS,
  HALLUCINATION,
  NOISE_SENSITIVITY,
} from '../../contract/metrics/metric-table.ts'
import type { ScoredQuestion } from '../../contract/metrics/metric.ts'
import type { Blame } from '../../contract/diagnoses.ts'

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

/** Below this share of the gold answer's claims in the context (claim recall), or of them used (context utilisation), is a failure. */
export const CLAIM_SHARE_THRESHOLD = 0.5

/**
 * Whose failure an answerable question's answer is, by the generator diagnostics (docs/metrics.md): the retriever's
 * when claim recall < CLAIM_SHARE_THRESHOLD; else the generator's when context utilisation is below it too, or when
 * the answer's wrong claims (hallucination + noise sensitivity) exceed 1 - FAITHFUL_THRESHOLD. null: neither, or
 * claim recall unknown (none questions, no gold answer, not judged).
 */
export function blame(question: ScoredQuestion): Blame | null {
  const inContext = CLAIM_RECALL.value(question)
  if (inContext === null) return null
  if (inContext < CLAIM_SHARE_THRESHOLD) return 'retriever'
  const wrong = (HALLUCINATION.value(question) ?? 0) + (NOISE_SENSITIVITY.value(question) ?? 0)
  const unused = (CONTEXT_UTILISATION.value(question) ?? 1) < CLAIM_SHARE_THRESHOLD
  return unused || 1 - wrong < FAITHFUL_THRESHOLD ? 'generator' : null
}
