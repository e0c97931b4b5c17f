import { factEvidence, keyFacts, statedFacts, type FactEvidence, type KeyFacts } from '../../text/key-facts.ts'
import { MIN_DECIDABLE_TERMS, MIN_OVERLAP, splitClaims } from './claims.ts'
import type { AnalysedPassage } from './context-passage.ts'
import type { MetricResult } from './metric-result.ts'

/** One claim checked by a judge: the context chunks that entail it, and whether the other text entails it. */
export interface CheckedClaim {
  claim: string
  chunkIds: string[]
  /** A gold claim: the answer states it; an answer claim: the gold answer states it (the claim is correct). */
  matched: boolean
}

/** RAGChecker's entailments of one answer: the gold answer's claims and the answer's, each checked (docs/metrics.md). */
export interface ClaimChecks {
  gold: CheckedClaim[]
  answer: CheckedClaim[]
}

export type DiagnosticsStatus = 'scored' | 'no-gold-answer' | 'no-gold-claims' | 'judge-error'

/** The generator diagnostics of one answer: claim recall as the value, the other four beside it, and the checks. */
export interface DiagnosticsResult extends MetricResult<DiagnosticsStatus>, ClaimChecks {
  contextUtilisation: number | null
  noiseSensitivity: number | null
  hallucination: number | null
  selfKnowledge: number | null
}

const share = (count: number, of: number): number | null => (of === 0 ? null : count / of)
const inContext = (claim: CheckedClaim) => claim.chunkIds.length > 0

/** Claim recall: of the gold answer's claims, the share some context chunk entails; null without gold claims. */
export const claimRecall = (checks: ClaimChecks) => share(checks.gold.filter(inContext).length, checks.gold.length)

/**
 * Context utilisation: of the gold claims some chunk entails, the share the answer states (a refusal states none:
 * 0); null when the context entails no gold claim (the generator had nothing to use: the retriever's miss).
 */
export function contextUtilisation(checks: ClaimChecks): number | null {
  const available = checks.gold.filter(inContext)
  return share(available.filter((claim) => claim.matched).length, available.length)
}

/**
 * Noise sensitivity: the share of the answer's claims that are wrong (the gold answer does not entail them) and
 * entailed by a chunk not of an answer document but by none of one (`answerChunkIds`); null without answer claims.
 */
export const noiseSensitivity = (checks: ClaimChecks, answerChunkIds: ReadonlySet<string>) =>
  share(
    checks.answer.filter((c) => !c.matched && inContext(c) && !c.chunkIds.some((id) => answerChunkIds.has(id))).length,
    checks.answer.length,
  )

/** Hallucination: the share of the answer's claims that no chunk entails and that are wrong; null without answer claims. */
export const hallucination = (checks: ClaimChecks) =>
  share(checks.answer.filter((c) => !c.matched && !inContext(c)).length, checks.answer.length)

/** Self-knowledge: the share of the answer's claims that no chunk entails but that are correct; null without answer claims. */
export const selfKnowledge = (checks: ClaimChecks) =>
  share(checks.answer.filter((c) => c.matched && !inContext(c)).length, checks.answer.length)

/** The five diagnostics from a judge's checks; no gold claim to check gives null everywhere (`no-gold-claims`). */
export function generatorDiagnostics(checks: ClaimChecks, answerChunkIds: ReadonlySet<string>): DiagnosticsResult {
  const recalled = checks.gold.filter(inContext).length
  return {
    value: claimRecall(checks),
    status: checks.gold.length === 0 ? 'no-gold-claims' : 'scored',
    numerator: recalled,
    denominator: checks.gold.length,
    contextUtilisation: contextUtilisation(checks),
    noiseSensitivity: checks.gold.length === 0 ? null : noiseSensitivity(checks, answerChunkIds),
    hallucination: checks.gold.length === 0 ? null : hallucination(checks),
    selfKnowledge: checks.gold.length === 0 ? null : selfKnowledge(checks),
    ...checks,
  }
}

/** No diagnostics: without a gold answer (none questions), or after a judge error. */
export const noDiagnostics = (status: DiagnosticsStatus): DiagnosticsResult => ({
  ...generatorDiagnostics({ gold: [], answer: [] }, new Set()),
  status,
})

/** A claim's facts (text/key-facts.ts), or null when it says too little to decide (an undecidable claim). */
function decidable(claim: string): KeyFacts | null {
  const facts = keyFacts(claim)
  return facts.terms.length < MIN_DECIDABLE_TERMS && facts.numbers.length === 0 ? null : facts
}

/** Lexical entailment, the lexical judge's rule within one text: each of the claim's numbers and MIN_OVERLAP of its terms. */
function entails(evidence: FactEvidence, facts: KeyFacts): boolean {
  const stated = statedFacts(facts, [evidence])
  const terms = facts.terms.length === 0 ? 1 : stated.terms.length / facts.terms.length
  return stated.numbers.length === facts.numbers.length && terms >= MIN_OVERLAP
}

/**
 * The lexical checker of claims against a context: each claim's entailing chunks, and whether `other` entails it;
 * null for a claim too short to decide.
 */
export function lexicalChecker(chunks: readonly AnalysedPassage[]) {
  return (claims: readonly string[], other: string): (CheckedClaim | null)[] => {
    const evidence = factEvidence(other)
    return claims.map((claim) => {
      const facts = decidable(claim)
      if (facts === null) return null
      const chunkIds = chunks.filter((chunk) => entails(chunk.evidence, facts)).map((chunk) => chunk.chunkId)
      return { claim, chunkIds, matched: entails(evidence, facts) }
    })
  }
}

const decided = (checks: (CheckedClaim | null)[]) => checks.filter((check) => check !== null)

/**
 * The offline judge's checks: the gold answer's and the answer's claims (splitClaims; undecidable ones left out),
 * each against every chunk and against the other text. A refusal makes no claim and states no gold claim.
 */
export function lexicalClaimChecks(
  goldAnswer: string,
  answer: string,
  refused: boolean,
  context: readonly AnalysedPassage[],
): ClaimChecks {
  const check = lexicalChecker(context)
  return {
    gold: decided(check(splitClaims(goldAnswer), refused ? '' : answer)),
    answer: refused ? [] : decided(check(splitClaims(answer), goldAnswer)),
  }
}
