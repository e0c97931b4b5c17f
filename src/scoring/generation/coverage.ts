import { factEvidence, keyFacts, unstatedFacts } from '../../text/key-facts.ts'
import type { MetricResult } from './metric-result.ts'

export type CoverageStatus = 'scored' | 'refusal' | 'no-answer' | 'no-gold-answer' | 'judge-error'

export interface CoverageResult extends MetricResult<CoverageStatus> {
  /** Key facts of the gold answer missing from the answer (numbers as written normalised, terms stemmed). */
  missing: string[]
}

/**
 * Coverage of the gold answer: the share of its key facts (each distinct number and content term) that the
 * answer contains. A refusal scores 0; no answer or no gold answer (none questions) gives null.
 */
export function goldCoverage(goldAnswer: string | null, answer: string | null, refused: boolean): CoverageResult {
  if (goldAnswer === null) return { value: null, status: 'no-gold-answer', numerator: 0, denominator: 0, missing: [] }
  if (answer === null) return { value: null, status: 'no-answer', numerator: 0, denominator: 0, missing: [] }
  const facts = keyFacts(goldAnswer)
  const all = [...facts.numbers, ...facts.terms]
  if (refused) return { value: 0, status: 'refusal', numerator: 0, denominator: all.length, missing: all }
  const unstated = unstatedFacts(facts, [factEvidence(answer)])
  const missing = [...unstated.numbers, ...unstated.terms]
  const found = all.length - missing.length
  return {
    value: all.length === 0 ? null : found / all.length,
    status: all.length === 0 ? 'no-gold-answer' : 'scored',
    numerator: found,
    denominator: all.length,
    missing,
  }
}
