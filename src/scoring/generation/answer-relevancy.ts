import { contentTerms } from '../../text/text-analyzer.ts'
import type { MetricResult } from './metric-result.ts'

export type RelevancyStatus = 'scored' | 'refusal' | 'no-answer' | 'empty-question' | 'judge-error'

/**
 * Offline answer relevancy: the share of the question's distinct content terms (stemmed, stopwords
 * removed) that the answer uses, in 0..1. It asks "does the answer talk about what was asked", not
 * whether it is right (that is faithfulness and coverage). A refusal scores 0; no answer or a question
 * without content terms gives null.
 */
export function lexicalAnswerRelevancy(question: string, answer: string | null, refused: boolean): MetricResult<RelevancyStatus> {
  if (answer === null) return { value: null, status: 'no-answer', numerator: 0, denominator: 0 }
  const asked = [...new Set(contentTerms(question))]
  if (asked.length === 0) return { value: null, status: 'empty-question', numerator: 0, denominator: 0 }
  if (refused) return { value: 0, status: 'refusal', numerator: 0, denominator: asked.length }
  const said = new Set(contentTerms(answer))
  const found = asked.filter((term) => said.has(term)).length
  return { value: found / asked.length, status: 'scored', numerator: found, denominator: asked.length }
}
