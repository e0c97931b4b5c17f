import { splitSentences } from '../../text/sentences.ts'

/**
 * Splits an answer into claims, one statement each: its sentences (list items each a sentence;
 * decimals, versions and abbreviations kept whole: see splitSentences), and independent clauses
 * joined by "; " split apart.
 */
export function splitClaims(answer: string): string[] {
  return splitSentences(answer).flatMap((sentence) =>
    sentence
      .split(/;\s+/)
      .map((clause) => clause.trim())
      .filter(Boolean),
  )
}
