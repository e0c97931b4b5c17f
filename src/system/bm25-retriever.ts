import type { Chunk } from './chunker.ts'
import type { Retriever, ScoredChunk } from './retriever.ts'
import { DEFAULT_RETRIEVER_OPTIONS, type RetrieverOptions } from '../config/retriever-options.ts'
import { indexWords, termOf } from './text-analyzer.ts'
import { bestOf } from './best-of.ts'

export type Bm25Options = Pick<RetrieverOptions, 'coordination' | 'k1' | 'b' | 'delta' | 'possessives' | 'titleWeight'>

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
  readonly #termIds = new Map<string, number>()
  /** Postings of term t: chunk ids in #postingChunk[#postingStart[t] ..< #postingStart[t + 1]], ascending, with their term frequencies. */
  readonly #postingStart: Int32Array
  readonly #postingChunk: Int32Array
  readonly #postingFreq: Int32Array
  /** Term frequencies in the title field, parallel to #postingFreq (all 0 without a title field). */
  readonly #postingTitleFreq: Int32Array
  /**
   * Per chunk: BM25's length normalisation 1 - b + b x length / average length (length = distinct words),
   * of the text and of the heading; fixed once the index is built, so computed once, not per posting.
   */
  readonly #norm: Float64Array
  readonly #titleNorm: Float64Array
  /** Scratch space of `search`, all zero between calls. */
  readonly #score: Float64Array
  readonly #matched: Int32Array
  readonly #touched: Int32Array

  /** Options left out take their defaults (retriever-options.ts: Lucene's scoring); MINISEARCH_RETRIEVER_OPTIONS reproduce MiniSearch's scores. */
  constructor(chunks: readonly Chunk[], options: Partial<Bm25Options> = {}) {
    this.#options = { ...DEFAULT_RETRIEVER_OPTIONS, ...options }
    const titled = this.#options.titleWeight > 0
    this.#chunks = chunks
    const n = chunks.length
    const lengths = new Int32Array(n)
    const titleLengths = new Int32Array(n)
    const chunkLists: number[][] = []
    const freqLists: number[][] = []
    const titleFreqLists: number[][] = []
    let averageLength = 0
    let averageTitleLength = 0
    let postings = 0
    /** Per term id of the chunk: [frequency in the text, frequency in the heading]. */
    const freqs = new Map<number, [number, number]>()
    const count = (words: readonly string[], field: 0 | 1) => {
      for (const word of words) {
        const term = termOf(word)
        if (!term) continue
        let termId = this.#termIds.get(term)
        if (termId === undefined) {
          termId = this.#termIds.size
          this.#termIds.set(term, termId)
          chunkLists.push([])
          freqLists.push([])
          titleFreqLists.push([])
        }
        let counts = freqs.get(termId)
        if (!counts) freqs.set(termId, (counts = [0, 0]))
        counts[field]++
      }
    }
    for (let id = 0; id < n; id++) {
      const words = this.#words(chunks[id]!.text)
      const length = new Set(words).size
      lengths[id] = length
      averageLength = (averageLength * id + length) / (id + 1)
      freqs.clear()
      count(words, 0)
      if (titled) {
        const titleWords = this.#words(chunks[id]!.heading)
        const titleLength = new Set(titleWords).size
        titleLengths[id] = titleLength
        averageTitleLength = (averageTitleLength * id + titleLength) / (id + 1)
        count(titleWords, 1)
      }
      for (const [termId, [freq, titleFreq]] of freqs) {
        chunkLists[termId]!.push(id)
        freqLists[termId]!.push(freq)
        titleFreqLists[termId]!.push(titleFreq)
      }
      postings += freqs.size
    }
    // The same expressions the query loop evaluated per posting, so every score stays the same to the bit.
    const { b } = this.#options
    this.#norm = Float64Array.from(lengths, (length) => 1 - b + (b * length) / averageLength)
    this.#titleNorm = Float64Array.from(titleLengths, (length) => 1 - b + (b * length) / averageTitleLength)
    this.#postingStart = new Int32Array(chunkLists.length + 1)
    this.#postingChunk = new Int32Array(postings)
    this.#postingFreq = new Int32Array(postings)
    this.#postingTitleFreq = new Int32Array(postings)
    let at = 0
    for (let termId = 0; termId < chunkLists.length; termId++) {
      this.#postingStart[termId] = at
      this.#postingChunk.set(chunkLists[termId]!, at)
      this.#postingFreq.set(freqLists[termId]!, at)
      this.#postingTitleFreq.set(titleFreqLists[termId]!, at)
      at += chunkLists[termId]!.length
    }
    this.#postingStart[chunkLists.length] = at
    this.#score = new Float64Array(n)
    this.#matched = new Int32Array(n)
    this.#touched = new Int32Array(n)
  }

  #words(text: string): string[] {
    return indexWords(text, this.#options)
  }

  /** The `depth` best chunks for a query, best first. Chunks sharing no term with the query are not ranked. */
  search(query: string, depth: number): ScoredChunk[] {
    const { k1, delta, coordination, titleWeight } = this.#options
    const chunkCount = this.#chunks.length
    const postingTitleFreq = this.#postingTitleFreq
    const norm = this.#norm
    const titleNorm = this.#titleNorm
    const starts = this.#postingStart
    const postingChunk = this.#postingChunk
    const postingFreq = this.#postingFreq
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
      const termId = this.#termIds.get(term)
      if (termId === undefined) continue
      const start = starts[termId]!
      const end = starts[termId + 1]!
      const df = end - start
      const idf = Math.log(1 + (chunkCount - df + 0.5) / (df + 0.5))
      for (let p = start; p < end; p++) {
        const id = postingChunk[p]!
        const tf = postingFreq[p]!
        let termScore: number
        if (titleWeight === 0) {
          // This exact expression (not the BM25F one below with w = 0) keeps MiniSearch's scores to the bit.
          termScore = idf * (delta + (tf * (k1 + 1)) / (tf + k1 * norm[id]!))
        } else {
          const titleTf = postingTitleFreq[p]!
          let pseudo = tf === 0 ? 0 : tf / norm[id]!
          if (titleTf > 0) pseudo += (titleWeight * titleTf) / titleNorm[id]!
          termScore = idf * (delta + (pseudo * (k1 + 1)) / (k1 + pseudo))
        }
        if (matched[id] === 0) touched[touchedCount++] = id
        if (first) matched[id]!++
        score[id]! += termScore
      }
    }

    // Keep the best `depth` by (score desc, corpus position asc), as `Array.prototype.slice(0, depth)` would.
    const integer = Math.trunc(depth) || 0
    const keep = integer < 0 ? Math.max(0, touchedCount + integer) : Math.min(touchedCount, integer)
    const ordinal = (id: number) => this.#chunks[id]!.ordinal
    const final = coordination ? (id: number) => score[id]! * matched[id]! : (id: number) => score[id]!
    const before = (a: number, b: number) => {
      const scoreA = final(a)
      const scoreB = final(b)
      return scoreA > scoreB || (scoreA === scoreB && ordinal(a) < ordinal(b))
    }
    const best = bestOf(touched, touchedCount, keep, before)
    const results = best.map((id) => ({ chunk: this.#chunks[id]!, score: final(id) }))
    for (let i = 0; i < touchedCount; i++) {
      const id = touched[i]!
      score[id] = 0
      matched[id] = 0
    }
    return results
  }
}
