import { contentTerms } from '../../text/text-analyzer.ts'
import { MIN_DECIDABLE_TERMS, MIN_OVERLAP, splitClaims } from './claims.ts'
import { extractNumbers } from '../../text/key-facts.ts'
import { ratio, type MetricResult } from './metric-result.ts'
import { analysePassages, type AnalysedPassage, type ContextPassage } from './context-passage.ts'

export interface ClaimVerdict {
  claim: string
  verdict: 'supported' | 'unsupported' | 'undecidable'
  /** Best share of the claim's content terms found in one chunk (null when undecidable). */
  overlap: number | null
  /** Numbers of the claim found nowhere in the context: any one makes the claim unsupported. */
  missingNumbers: string[]
  /** The chunk the claim relies on (best overlap), null when undecidable. */
  chunkId: string | null
  /** The model judge's own verdict (supported / contradicted / not_found); absent for the offline judge. */
  judgeVerdict?: 'supported' | 'contradicted' | 'not_found'
  /** The model judge's one-sentence reason; absent for the offline judge. */
  reason?: string
}

export type FaithfulnessStatus = 'scored' | 'refusal' | 'nothing-decidable' | 'no-answer' | 'judge-error'

export interface FaithfulnessResult extends MetricResult<FaithfulnessStatus> {
  claims: ClaimVerdict[]
  /** The unsupported claims, verbatim. */
  unsupportedClaims: string[]
}

/** The distinct content terms of a claim that are not numbers (numbers are checked as numbers). */
function claimTerms(claim: string): string[] {
  return [...new Set(contentTerms(claim))].filter((term) => !/^\d/.test(term))
}

function judgeClaim(
  claim: string,
  terms: readonly string[],
  passages: readonly AnalysedPassage[],
  contextNumbers: ReadonlySet<string>,
): ClaimVerdict {
  const numbers = [...new Set(extractNumbers(claim))]
  if (terms.length < MIN_DECIDABLE_TERMS && numbers.length === 0)
    return { claim, verdict: 'undecidable', overlap: null, missingNumbers: [], chunkId: null }
  let best = { overlap: terms.length === 0 ? 1 : 0, chunkId: passages[0]?.chunkId ?? null }
  for (const passage of passages) {
    const overlap = terms.length === 0 ? 1 : terms.filter((term) => passage.evidence.terms.has(term)).length / terms.length
    if (overlap > best.overlap || best.chunkId === null) best = { overlap, chunkId: passage.chunkId }
  }
  const missingNumbers = numbers.filter((n) => !contextNumbers.has(n))
  const supported = missingNumbers.length === 0 && best.overlap >= MIN_OVERLAP && passages.length > 0
  return { claim, verdict: supported ? 'supported' : 'unsupported', overlap: best.overlap, missingNumbers, chunkId: best.chunkId }
}

/**
 * Offline faithfulness: supported / decidable claims, a claim supported when at least MIN_OVERLAP of its
 * content terms are in one chunk and each of its numbers is somewhere in the context. No answer -> null
 * (no-answer); nothing decidable -> null (nothing-decidable); a refusal -> 1 (status refusal: read relevancy beside it).
 */
export function lexicalFaithfulness(
  answer: string | null,
  refused: boolean,
  context: readonly ContextPassage[],
): FaithfulnessResult {
  return faithfulnessOf(answer, refused, answer === null || refused ? [] : analysePassages(context))
}

/** lexicalFaithfulness over passages analysed once for all of an answer's scorers. */
export function faithfulnessOf(
  answer: string | null,
  refused: boolean,
  passages: readonly AnalysedPassage[],
): FaithfulnessResult {
  if (answer === null)
    return { value: null, status: 'no-answer', numerator: 0, denominator: 0, claims: [], unsupportedClaims: [] }
  if (refused) return { value: 1, status: 'refusal', numerator: 0, denominator: 0, claims: [], unsupportedClaims: [] }
  const claimTexts = splitClaims(answer)
  const termsOfClaims = claimTexts.map(claimTerms)
  const contextNumbers = new Set(passages.flatMap((passage) => [...passage.evidence.numbers]))
  const claims = claimTexts.map((claim, k) => judgeClaim(claim, termsOfClaims[k]!, passages, contextNumbers))
  const decidable = claims.filter((c) => c.verdict !== 'undecidable').length
  const supported = claims.filter((c) => c.verdict === 'supported').length
  return {
    ...ratio<FaithfulnessStatus>(supported, decidable, 'scored', 'nothing-decidable'),
    claims,
    unsupportedClaims: claims.filter((c) => c.verdict === 'unsupported').map((c) => c.claim),
  }
}
