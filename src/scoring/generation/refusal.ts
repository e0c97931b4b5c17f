/** Tri-state refusal verdict: the model judge decides the unclear ones in the model tier. */
export type RefusalVerdict = 'refused' | 'answered' | 'unclear'

/** Phrases that say the material holds no answer (deterministic, checked first). */
const REFUSAL_PATTERNS: readonly RegExp[] = [
  /\b(?:could not|couldn't|cannot|can't|can not|unable to|did not|didn't|do not|don't)\s+(?:find|locate|determine|see|identify|answer)\b/i,
  /\b(?:not|never)\s+(?:mentioned|covered|stated|specified|described|documented|addressed|included|answered)\s+(?:in|by)\s+(?:the\s+)?(?:provided\s+|given\s+|available\s+)?(?:material|context|documents?|sources?|handbook|passages?)/i,
  /\bthe\s+(?:provided\s+|given\s+|available\s+)?(?:material|context|documents?|sources?|handbook|passages?)\s+(?:does|do)\s*(?:not|n't)\s+(?:say|mention|state|cover|contain|include|specify|answer|provide)/i,
  /\b(?:no|not enough)\s+(?:information|details?|mention)\s+(?:about|on|regarding|of|in)\b/i,
  /\bI\s+(?:do not|don't)\s+know\b/i,
]

/**
 * Refused: a refusal phrase and nothing else of substance (at most two clauses, no number outside the refusing
 * clause), or an empty answer. Unclear: a refusal phrase beside substantive content (the model judge decides).
 * Answered: no refusal phrase.
 */
export function detectRefusal(answer: string): RefusalVerdict {
  const text = answer.trim()
  if (text === '') return 'refused'
  // Clauses, so that "it does not say; it is probably 30 days" is seen as a hedge, not a refusal.
  const clauses = text.split(/(?<=[.!?])\s+|;\s+|,?\s+but\s+/)
  const refusing = clauses.filter((clause) => REFUSAL_PATTERNS.some((pattern) => pattern.test(clause)))
  if (refusing.length === 0) return 'answered'
  const rest = clauses.filter((clause) => !refusing.includes(clause))
  const substantive = rest.some((clause) => /\d/.test(clause) || clause.split(/\s+/).length > 12)
  return !substantive && clauses.length <= 2 ? 'refused' : 'unclear'
}
