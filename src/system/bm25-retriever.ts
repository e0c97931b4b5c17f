import type { Chunk } from './chunker.ts'
import { termOf, tokenizeWords } from './text-analyzer.ts'

export interface ScoredChunk {
  chunk: Chunk
  score: number
}

/** BM25+ parameters (MiniSearch's defaults, which this retriever used to call). */
const K1 = 1.2
const B = 0.7
const DELTA = 0.5

/** Up to this many results are kept by insertion into a small sorted list; more are sorted whole. */
const SMALL_DEPTH = 256

/**
 * BM25+ retrieval over chunks (k1 = 1.2, b = 0.7, d = 0.5), favouring chunks that match more distinct
 * query terms. Terms: lower-cased words minus English stopwords, Porter-stemmed (text-analyzer.ts), so
 * the index and the queries are analysed alike. Equal scores are ordered by corpus position, so
 * rankings are stable.
 *
 * The scores are, to the last bit, those of MiniSearch 7 (`new MiniSearch({ fields: ['text'], tokenize:
 * tokenizeWords, processTerm: termOf })`, default search options), which this class used until its
 * per-match objects and whole-result sorts made a 10,000-document corpus take seconds per hundred
 * queries. Kept identical on purpose, because rankings feed every report:
 * - a chunk's length is its number of distinct words, stopwords included; the average length is
 *   accumulated chunk by chunk as `(avg * i + length) / (i + 1)`;
 * - a term scores `idf * (d + tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / avg)))` with
 *   `idf = ln(1 + (N - df + 0.5) / (df + 0.5))`;
 * - a chunk's score is the sum of its term scores in query order (a repeated query term counts each
 *   time), times the number of distinct query terms it matches.
 */
export class Bm25Retriever {
  readonly #chunks: readonly Chunk[]
  readonly #termIds = new Map<string, number>()
  /** Postings of term t: chunk ids in #postingChunk[#postingStart[t] ..< #postingStart[t + 1]], ascending, with their term frequencies. */
  readonly #postingStart: Int32Array
  readonly #postingChunk: Int32Array
  readonly #postingFreq: Int32Array
  /** Per chunk: its number of distinct words. */
  readonly #length: Int32Array
  readonly #averageLength: number
  /** Scratch space of `search`, all zero between calls. */
  readonly #score: Float64Array
  readonly #matched: Int32Array
  readonly #touched: Int32Array

  constructor(chunks: readonly Chunk[]) {
    this.#chunks = chunks
    const n = chunks.length
    this.#length = new Int32Array(n)
    const chunkLists: number[][] = []
    const freqLists: number[][] = []
    let averageLength = 0
    let postings = 0
    const freqs = new Map<number, number>()
    for (let id = 0; id < n; id++) {
      const words = tokenizeWords(chunks[id]!.text)
      const length = new Set(words).size
      this.#length[id] = length
      averageLength = (averageLength * id + length) / (id + 1)
      freqs.clear()
      for (const word of words) {
        const term = termOf(word)
        if (!term) continue
        let termId = this.#termIds.get(term)
        if (termId === undefined) {
          termId = this.#termIds.size
          this.#termIds.set(term, termId)
          chunkLists.push([])
          freqLists.push([])
        }
        freqs.set(termId, (freqs.get(termId) ?? 0) + 1)
      }
      for (const [termId, freq] of freqs) {
        chunkLists[termId]!.push(id)
        freqLists[termId]!.push(freq)
      }
      postings += freqs.size
    }
    this.#averageLength = averageLength
    this.#postingStart = new Int32Array(chunkLists.length + 1)
    this.#postingChunk = new Int32Array(postings)
    this.#postingFreq = new Int32Array(postings)
    let at = 0
    for (let termId = 0; termId < chunkLists.length; termId++) {
      this.#postingStart[termId] = at
      this.#postingChunk.set(chunkLists[termId]!, at)
      this.#postingFreq.set(freqLists[termId]!, at)
      at += chunkLists[termId]!.length
    }
    this.#postingStart[chunkLists.length] = at
    this.#score = new Float64Array(n)
    this.#matched = new Int32Array(n)
    this.#touched = new Int32Array(n)
  }

  /** The `depth` best chunks for a query, best first. Chunks sharing no term with the query are not ranked. */
  search(query: string, depth: number): ScoredChunk[] {
    const chunkCount = this.#chunks.length
    const length = this.#length
    const averageLength = this.#averageLength
    const starts = this.#postingStart
    const postingChunk = this.#postingChunk
    const postingFreq = this.#postingFreq
    const score = this.#score
    const matched = this.#matched
    const touched = this.#touched
    let touchedCount = 0
    const seen = new Set<string>()
    for (const word of tokenizeWords(query)) {
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
        const termScore = idf * (DELTA + (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length[id]!) / averageLength)))
        if (matched[id] === 0) touched[touchedCount++] = id
        if (first) matched[id]!++
        score[id]! += termScore
      }
    }

    // Keep the best `depth` by (score desc, corpus position asc), as `Array.prototype.slice(0, depth)` would.
    const integer = Math.trunc(depth) || 0
    const keep = integer < 0 ? Math.max(0, touchedCount + integer) : Math.min(touchedCount, integer)
    const ordinal = (id: number) => this.#chunks[id]!.ordinal
    const final = (id: number) => score[id]! * matched[id]!
    const before = (a: number, b: number) => {
      const scoreA = final(a)
      const scoreB = final(b)
      return scoreA > scoreB || (scoreA === scoreB && ordinal(a) < ordinal(b))
    }
    let best: number[]
    if (keep <= SMALL_DEPTH) {
      best = []
      for (let i = 0; i < touchedCount && keep > 0; i++) {
        const id = touched[i]!
        if (best.length === keep && !before(id, best[keep - 1]!)) continue
        let at = best.length === keep ? keep - 1 : best.length
        while (at > 0 && before(id, best[at - 1]!)) {
          best[at] = best[at - 1]!
          at--
        }
        best[at] = id
      }
    } else {
      best = Array.from(touched.subarray(0, touchedCount))
        .sort((a, b) => final(b) - final(a) || ordinal(a) - ordinal(b))
        .slice(0, keep)
    }
    const results = best.map((id) => ({ chunk: this.#chunks[id]!, score: final(id) }))
    for (let i = 0; i < touchedCount; i++) {
      const id = touched[i]!
      score[id] = 0
      matched[id] = 0
    }
    return results
  }
}
