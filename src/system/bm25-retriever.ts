import type { Chunk } from './chunker.ts'
import type { Retriever, ScoredChunk } from './retriever.ts'
import { DEFAULT_RETRIEVER_OPTIONS } from '../config/retriever-options.ts'
import { indexWords, termOf } from './text-analyzer.ts'
import { bestOf } from './best-of.ts'
import { buildBm25Index, type Bm25Index, type Bm25Options } from './bm25-index.ts'

/**
 * BM25 retrieval over chunks. Terms: lower-cased words minus English stopwords, Porter-stemmed
 * (text-analyzer.ts), optionally without possessive 's, so the index and the queries are analysed alike.
 * Equal scores are ordered by corpus position, so rankings are stable.
 *
 * With MINISEARCH_RETRIEVER_OPTIONS (k1 = 1.2, b = 0.7, delta = 0.5, coordination on, no possessive
 * filter, no title field; the defaults before Lucene's scoring) the scores are, to the last bit, those of MiniSearch 7 (`new MiniSearch({ fields: ['text'], tokenize:
 * tokenizeWords, processTerm: termOf })`, default search options), which this class used until its
 * per-match objects and whole-result sorts made a 10,000-document corpus take seconds per hundred
 * queries. Kept identical on purpose, because rankings feed every report:
 * - a chunk's length is its number of distinct words, stopwords included; the average length is
 *   accumulated chunk by chunk as `(avg * i + length) / (i + 1)`;
 * - a term scores `idf * (delta + tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / avg)))` with
 *   `idf = ln(1 + (N - df + 0.5) / (df + 0.5))` (Lucene's BM25 idf; delta > 0 is BM25+, Lv & Zhai 2011,
 *   delta = 0 plain BM25 as Lucene scores it);
 * - a chunk's score is the sum of its term scores in query order (a repeated query term counts each
 *   time), times the number of distinct query terms it matches when `coordination` is on (MiniSearch's
 *   heuristic; Lucene dropped it: it lets a chunk matching many common terms beat one matching the rare one).
 *
 * With `titleWeight` w > 0 the chunk's heading path (document title > section, the chunk's first line)
 * is also a BM25F field (Robertson, Zaragoza & Taylor 2004): a term's frequency becomes
 * `tf / norm + w * tfTitle / normTitle`, each field normalised by its own length against its own average
 * (same b), and that pseudo-frequency goes through the saturation `x (k1 + 1) / (k1 + x)` once. The text
 * field keeps the heading line, so w = 0 is exactly the plain scoring and w > 0 adds to heading terms.
 */
export class Bm25Retriever implements Retriever {
  readonly #options: Bm25Options
  readonly #chunks: readonly Chunk[]
  /** Each chunk's corpus position, the tie-break of equal scores. */
  readonly #ordinal: Float64Array
  /** The index searched: built from the chunks, or given (a built corpus kept between runs: run/built-corpus-cache.ts). */
  readonly #index: Bm25Index
  /** Scratch space of `search`, all zero between calls. */
  readonly #score: Float64Array
  readonly #matched: Int32Array
  readonly #touched: Int32Array

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
  }

  #words(text: string): string[] {
    return indexWords(text, this.#options)
  }

  /** The `depth` best chunks for a query, best first. Chunks sharing no term with the query are not ranked. */
  search(query: string, depth: number): ScoredChunk[] {
    const { coordination } = this.#options
    const chunkCount = this.#chunks.length
    const { termIds, postingStart: starts, postingChunk, postingWeight } = this.#index
    const score = this.#score
    const matched = this.#matched
    const touched = this.#touched
    let touchedCount = 0
    const seen = new Set<string>()
    for (const word of this.#words(query)) {
      const term = termOf(word)
      if (!term) continue
      // Only a term's first occurrence counts towards the distinct terms a chunk matches.
      const first = !seen.has(term)
      seen.add(term)
      const termId = termIds.get(term)
      if (termId === undefined) continue
      const start = starts[termId]!
      const end = starts[termId + 1]!
      const df = end - start
      const idf = Math.log(1 + (chunkCount - df + 0.5) / (df + 0.5))
      if (coordination) {
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
    }
    if (coordination) for (let i = 0; i < touchedCount; i++) score[touched[i]!]! *= matched[touched[i]!]!

    // Keep the best `depth` by (score desc, corpus position asc), as `Array.prototype.slice(0, depth)` would.
    const integer = Math.trunc(depth) || 0
    const keep = integer < 0 ? Math.max(0, touchedCount + integer) : Math.min(touchedCount, integer)
    const best = bestOf(touched, touchedCount, keep, score, this.#ordinal)
    const results = best.map((id) => ({ chunk: this.#chunks[id]!, score: score[id]! }))
    for (let i = 0; i < touchedCount; i++) {
      const id = touched[i]!
      score[id] = 0
      matched[id] = 0
    }
    return results
  }
}
