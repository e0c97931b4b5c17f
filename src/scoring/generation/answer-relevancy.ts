import { contentTerms } from '../../text/text-analyzer.ts'
import type { MetricResult } from './metric-result.ts'

export type RelevancyStatus = 'scored' | 'refusal' | 'no-answer' | 'empty-question' | 'judge-error'

/**
 * Offline answer relevancy: the share of the question's distinct content terms (stemmed, stopwords removed) that
 * the answer uses, in 0..1 ("does it talk about what was asked", not whether it is right). A refusal scores 0; no
 * answer or no content terms gives null. A follow-up without content terms ("And then?") takes those of the
 * user's latest earlier turn that has some.
 */
export function lexicalAnswerRelevancy(
  question: string,
  answer: string | null,
  refused: boolean,
  history: readonly { role: 'user' | 'assistant'; content: string }[] = [],
): MetricResult<RelevancyStatus> {
  if (answer === null) return { value: null, status: 'no-answer', numerator: 0, denominator: 0 }
  const asked = askedTerms(question, history)
  if (asked.length === 0) return { value: null, status: 'empty-question', numerator: 0, denominator: 0 }
  if (refused) return { value: 0, status: 'refusal', numerator: 0, denominator: asked.length }
  const said = new Set(contentTerms(answer))
  const found = asked.filter((term) => said.has(term)).length
  return { value: found / asked.length, status: 'scored', numerator: found, denominator: asked.length }
}

/** The question's distinct content terms; for a follow-up without any, those of the latest user turn that has some. */
function askedTerms(question: string, history: readonly { role: 'user' | 'assistant'; content: string }[]): string[] {
  const own = [...new Set(contentTerms(question))]
  if (own.length > 0) return own
  for (const turn of [...history].reverse()) {
    if (turn.role !== 'user') continue
    const earlier = [...new Set(contentTerms(turn.content))]
    if (earlier.length > 0) return earlier
  }
  return own
}
