import { indexWords, termOf } from '../text/text-analyzer.ts'
import type { RetrievedChunk } from '../system/rag-system.ts'

/** Tao & Zhai's alpha: how little a chunk loses whose query terms lie far apart (ln 0.3 at worst, ln 1.3 at best). */
const ALPHA = 0.3
/**
 * Weight of the proximity term against the first stage's score scaled to the top candidate's (1): the distance
 * between adjacent and scattered query terms then moves a chunk by about 8% of the top score, the share the paper's
 * term has against BM25 scores of about 10.
 */
const WEIGHT = 0.1

/** A text's search terms by word position (null for a stopword), cut as the BM25 retriever cuts its words. */
function termsByPosition(text: string, possessives: boolean): (string | null)[] {
  return indexWords(text, { possessives }).map(termOf)
}

/**
 * MinDist (Tao & Zhai, "An exploration of proximity measures in information retrieval", SIGIR 2007): the fewest word
 * positions between occurrences of two different query terms in the text; null when it holds fewer than two of them.
 * The closest such pair is always adjacent among the query terms' occurrences, so one scan finds it.
 */
export function minPairDistance(queryTerms: ReadonlySet<string>, textTerms: readonly (string | null)[]): number | null {
  let best: number | null = null
  let previous: { term: string; position: number } | null = null
  for (let position = 0; position < textTerms.length; position++) {
    const term = textTerms[position]!
    if (term === null || !queryTerms.has(term)) continue
    if (previous !== null && previous.term !== term) best = Math.min(best ?? Infinity, position - previous.position)
    previous = { term, position }
  }
  return best
}

/** The paper's proximity score ln(alpha + e^-MinDist): ln 1.3 for adjacent terms, towards ln 0.3 (no pair) as they part. */
export function proximityScore(distance: number | null): number {
  return Math.log(ALPHA + (distance === null ? 0 : Math.exp(-distance)))
}

/**
 * The candidates reordered by their first-stage score (scaled to the first candidate's) plus WEIGHT times the
 * proximity of the query's terms in their text; ties keep the first stage's order. Pure and deterministic.
 */
export function proximityRerank(
  query: string,
  candidates: readonly RetrievedChunk[],
  options: { possessives: boolean },
): RetrievedChunk[] {
  const queryTerms = new Set(termsByPosition(query, options.possessives).filter((term) => term !== null))
  const top = candidates[0]?.score ?? 0
  const scored = candidates.map((chunk, index) => {
    const distance = minPairDistance(queryTerms, termsByPosition(chunk.text, options.possessives))
    return { chunk, index, score: (top > 0 ? chunk.score / top : 0) + WEIGHT * proximityScore(distance) }
  })
  return scored.sort((a, b) => b.score - a.score || a.index - b.index).map(({ chunk }) => chunk)
}
