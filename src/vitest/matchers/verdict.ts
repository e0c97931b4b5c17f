/** A matcher's pure decision: pass or fail with evidence, or undecidable in this run (the case skips with the reason). */
export type MatcherVerdict =
  | {
      pass: boolean
      /** The claim in the positive, e.g. "q-003 to hit its context": the message adds "expected" / "expected not". */
      claim: string
      /** The evidence, printed under the claim: made only for a message shown (a passing case needs none). */
      evidence: () => string
    }
  | { undecidable: string }

/** Formats a failed verdict's message for `expect` and `expect.not`. */
export function verdictMessage(verdict: Extract<MatcherVerdict, { pass: boolean }>, isNot: boolean): string {
  return `expected ${isNot ? 'not ' : ''}${verdict.claim}\n\n${verdict.evidence()}`
}
