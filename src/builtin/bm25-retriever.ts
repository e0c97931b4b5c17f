import type { Chunk } from './chunker.ts'
import type { Retriever, ScoredChunk } from './retriever.ts'
import { DEFAULT_RETRIEVER_OPTIONS } from '../contract/retriever-options.ts'
import { indexWords, termOf } from '../text/text-analyzer.ts'
import { bestOf } from './best-of.ts'
import { buildBm25Index, type Bm25Index, type Bm25Options } from './bm25-index.ts'

/**
 * BM25 retrieval over chunks (terms as text-analyzer.ts analyses them); equal scores ordered by corpus position.
 * A term scores `idf * (delta + tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / avg)))` with Lucene's
 * `idf = ln(1 + (N - df + 0.5) / (df + 0.5))` and length a chunk's distinct words, stopwords included; a chunk
 * scores the sum in query order, times its distinct query terms matched with `coordination`. `titleWeight` w > 0
 * makes the heading path a BM25F field (`tf / norm + w * tfTitle / normTitle`, saturated once).
 * MINISEARCH_RETRIEVER_OPTIONS must reproduce MiniSearch 7's scores to the bit: rankings feed every report.
 */
export class Bm25Retriever implements Retriever {
  readonly #options: Bm25Options
  readonly #chunks: readonly Chunk[]
  /** Each chunk's corpus position, the tie-break of equal scores. */
  readonly #ordinal: Float64Array
  /** The index searched: built from the chunks, or given (a built corpus kept between runs: builtin/built-corpus-cache.ts). */
  readonly #index: Bm25Index
  /** Scratch space of `search`, all zero between calls. */
  readonly #score: Float64Array
  readonly #matched: Int32Array
  readonly #touched: Int32Array
  /** Each term's largest posting weight, -1 until a pruned search needs it. */
  readonly #maxWeights: Float64Array

  /**
   * Options left out take their defaults (retriever-options.ts: Lucene's scoring); MINISEARCH_RETRIEVER_OPTIONS
   * reproduce MiniSearch's scores. `index`: one buildBm25Index made of these chunks with these options.
   */
  constructor(chunks: readonly Chunk[], options: Partial<Bm25Options> = {}, index?: Bm25Index) {
    this.#options = { ...DEFAULT_RETRIEVER_OPTIONS, ...options }
    this.#chunks = chunks
    this.#ordinal = Float64Array.from(chunks, (chunk) => chunk.ordinal)
    this.#index = index ?? buildBm25Index(chunks, this.#options)
    const n = chunks.length
    this.#score = new Float64Array(n)
    this.#matched = new Int32Array(n)
    this.#touched = new Int32Array(n)
    this.#maxWeights = new Float64Array(this.#index.termIds.size).fill(-1)
  }

  #words(text: string): string[] {
    return indexWords(text, this.#options)
  }

  /** The `depth` best chunks for a query, best first. Chunks sharing no term with the query are not ranked. */
  search(query: string, depth: number): ScoredChunk[] {
    const { termIds } = this.#index
    // The query's terms found in the index, in query order (a repeated term once per occurrence), and
    // whether each is its term's first occurrence (only that one counts towards coordination).
    const terms: number[] = []
    const firsts: boolean[] = []
    const seen = new Set<string>()
    for (const word of this.#words(query)) {
      const term = termOf(word)
      if (!term) continue
      const first = !seen.has(term)
      seen.add(term)
      const termId = termIds.get(term)
      if (termId === undefined) continue
      terms.push(termId)
      firsts.push(first)
    }
    const integer = Math.trunc(depth) || 0
    const { ids, scores } =
      (!this.#options.coordination && integer > 0 ? this.#bestPruned(terms, integer) : null) ??
      this.#bestOfAll(terms, firsts, depth)
    return ids.map((id, i) => ({ chunk: this.#chunks[id]!, score: scores[i]! }))
  }

  /** idf of a term id: Lucene's ln(1 + (N - df + 0.5) / (df + 0.5)). */
  #idf(termId: number): number {
    const starts = this.#index.postingStart
    const df = starts[termId + 1]! - starts[termId]!
    const chunkCount = this.#chunks.length
    return Math.log(1 + (chunkCount - df + 0.5) / (df + 0.5))
  }

  /** Every chunk with a query term scored; the best `depth` kept with their scores, the scratch arrays left all zero. */
  #bestOfAll(terms: readonly number[], firsts: readonly boolean[], depth: number): Ranked {
    const { coordination } = this.#options
    const { postingStart: starts, postingChunk, postingWeight } = this.#index
    const score = this.#score
    const matched = this.#matched
    const touched = this.#touched
    let touchedCount = 0
    terms.forEach((termId, k) => {
      const start = starts[termId]!
      const end = starts[termId + 1]!
      const idf = this.#idf(termId)
      if (coordination) {
        const first = firsts[k]!
        for (let p = start; p < end; p++) {
          const id = postingChunk[p]!
          if (matched[id] === 0) touched[touchedCount++] = id
          if (first) matched[id]!++
          score[id]! += idf * postingWeight[p]!
        }
      } else {
        // Without coordination a chunk's score is all that is kept: it is 0 until the chunk is first met
        // (every term's contribution is positive), so it marks the chunks touched.
        for (let p = start; p < end; p++) {
          const id = postingChunk[p]!
          if (score[id] === 0) touched[touchedCount++] = id
          score[id]! += idf * postingWeight[p]!
        }
      }
    })
    if (coordination) for (let i = 0; i < touchedCount; i++) score[touched[i]!]! *= matched[touched[i]!]!

    // Keep the best `depth` by (score desc, corpus position asc), as `Array.prototype.slice(0, depth)` would.
    const integer = Math.trunc(depth) || 0
    const keep = integer < 0 ? Math.max(0, touchedCount + integer) : Math.min(touchedCount, integer)
    const ids = bestOf(touched, touchedCount, keep, score, this.#ordinal)
    const scores = ids.map((id) => score[id]!)
    for (let i = 0; i < touchedCount; i++) {
      const id = touched[i]!
      score[id] = 0
      matched[id] = 0
    }
    return { ids, scores }
  }

  /**
   * #bestOfAll without coordination, to the bit, when one query term is in far more chunks than the others: MaxScore
   * with that term non-essential (docs/scaling.md, "Large golden sets", "Pruned BM25 search"). Null when the query
   * is not of that shape or the bound does not hold.
   */
  #bestPruned(terms: readonly number[], keep: number): Ranked | null {
    const { postingStart: starts, postingChunk, postingWeight } = this.#index
    const df = (termId: number) => starts[termId + 1]! - starts[termId]!
    let common = -1
    for (const termId of terms) if (common < 0 || df(termId) > df(common)) common = termId
    if (common < 0 || df(common) < PRUNE_MIN_POSTINGS) return null
    const others = [...new Set(terms)].filter((termId) => termId !== common)
    if (others.length === 0 || others.reduce((sum, termId) => sum + df(termId), 0) * PRUNE_RATIO > df(common)) return null
    // The candidates: the chunks of the other terms, each once, in chunk order (to gallop through the common term's postings).
    const score = this.#score
    // Coordination's per-chunk counts are unused (and all zero) without it: here they mark the candidates met.
    const mark = this.#matched
    const touched = this.#touched
    let count = 0
    for (const termId of others) {
      for (let p = starts[termId]!; p < starts[termId + 1]!; p++) {
        const id = postingChunk[p]!
        if (mark[id] === 0) {
          mark[id] = 1
          touched[count++] = id
        }
      }
    }
    for (let i = 0; i < count; i++) mark[touched[i]!] = 0
    if (count < keep) return null
    const candidates = touched.subarray(0, count).sort()
    // Exact scores, term by term in query order, as #bestOfAll adds them.
    for (const termId of terms) {
      const idf = this.#idf(termId)
      if (termId !== common) {
        for (let p = starts[termId]!; p < starts[termId + 1]!; p++) score[postingChunk[p]!]! += idf * postingWeight[p]!
        continue
      }
      let p = starts[termId]!
      const end = starts[termId + 1]!
      for (const id of candidates) {
        p = gallop(postingChunk, p, end, id)
        if (p === end) break
        if (postingChunk[p] === id) score[id]! += idf * postingWeight[p]!
      }
    }
    const best = bestOf(candidates, count, keep, score, this.#ordinal)
    // The most the common term gives a chunk that has no other query term: its best contribution, added as
    // #bestOfAll adds it (once per occurrence); float addition is monotonic, so no such chunk scores more.
    const most = this.#idf(common) * this.#maxWeight(common)
    let bound = 0
    for (const termId of terms) if (termId === common) bound += most
    const scores = best.map((id) => score[id]!)
    for (const id of candidates) score[id] = 0
    return scores[scores.length - 1]! > bound ? { ids: best, scores } : null
  }

  /** A term's largest posting weight (computed once per term). */
  #maxWeight(termId: number): number {
    let most = this.#maxWeights[termId]!
    if (most < 0) {
      const { postingStart: starts, postingWeight } = this.#index
      for (let p = starts[termId]!; p < starts[termId + 1]!; p++) if (postingWeight[p]! > most) most = postingWeight[p]!
      this.#maxWeights[termId] = most
    }
    return most
  }
}

/** The best chunks of a query, best first, with their scores. */
interface Ranked {
  ids: number[]
  scores: number[]
}

/** The common term of a pruned search must be in this many chunks at least: below, walking its postings costs less than galloping. */
const PRUNE_MIN_POSTINGS = 2048

/** ... and in this many times more chunks than the query's other terms together. */
const PRUNE_RATIO = 4

/** The first position p >= from (and < end) of the ascending chunk ids with chunks[p] >= id, or end: exponential, then binary search. */
function gallop(chunks: Int32Array, from: number, end: number, id: number): number {
  if (from >= end || chunks[from]! >= id) return from
  let low = from
  let step = 1
  while (low + step < end && chunks[low + step]! < id) {
    low += step
    step *= 2
  }
  let high = Math.min(low + step, end)
  // chunks[low] < id; the answer is in (low, high].
  while (high - low > 1) {
    const middle = (low + high) >>> 1
    if (chunks[middle]! < id) low = middle
    else high = middle
  }
  return high
}
