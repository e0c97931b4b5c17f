import { splitSentences } from '../../text/sentences.ts'

/** Share of a claim's content terms that must appear in one text for the lexical judge to find the claim there. */
export const MIN_OVERLAP = 0.7
/** A claim with fewer content terms than this and no number says too little to decide: it leaves the denominator. */
export const MIN_DECIDABLE_TERMS = 2

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
