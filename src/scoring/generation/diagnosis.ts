/** Faithfulness at or above this counts as "the model stayed with its context" in the diagnosis. */
export const FAITHFUL_THRESHOLD = 0.8

export type Diagnosis = 'healthy' | 'model ignores context' | 'retrieval misses' | 'both broken'

/**
 * The recall x faithfulness diagnosis of an answerable question. Retrieval is fine when the context hit;
 * the model is fine when it answered with faithfulness >= FAITHFUL_THRESHOLD, or refused while the
 * context lacked the answer (refusing despite a hit means it ignored its context).
 * healthy (both fine) · model ignores context (hit, model not fine: look at the prompt/model) ·
 * retrieval misses (miss, model fine: look at chunking/ranking/budget) · both broken.
 * null when faithfulness is unknown (no answer, nothing decidable) or the question is a none question.
 */
export function diagnose(input: {
  answerable: boolean
  hit: boolean
  refused: boolean
  faithfulness: number | null
}): Diagnosis | null {
  if (!input.answerable) return null
  const modelFine = input.refused ? !input.hit : input.faithfulness !== null ? input.faithfulness >= FAITHFUL_THRESHOLD : null
  if (modelFine === null) return null
  if (input.hit) return modelFine ? 'healthy' : 'model ignores context'
  return modelFine ? 'retrieval misses' : 'both broken'
}
