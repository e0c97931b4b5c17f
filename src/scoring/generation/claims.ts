import { splitSentences } from '../../text/sentences.ts'

/**
 * An answer's claims: its sentences (splitSentences keeps decimals, versions, abbreviations whole), with
 * independent clauses joined by "; " split apart.
 */
export function splitClaims(answer: string): string[] {
  return splitSentences(answer).flatMap((sentence) =>
    sentence
      .split(/;\s+/)
      .map((clause) => clause.trim())
      .filter(Boolean),
  )
}
