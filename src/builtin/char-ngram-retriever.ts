import type { Chunk } from './chunker.ts'
import { charNgrams } from './char-ngrams.ts'
import type { Retriever, ScoredChunk } from './retriever.ts'
import { isStopword, tokenizeWords } from '../text/text-analyzer.ts'
import { bestOf } from './best-of.ts'
import { IntList } from './int-list.ts'

/**
 * Character n-gram TF-IDF cosine retrieval, robust to typos and morphology unlike BM25. Chunk and query are vectors
 * over their words' 3- to 5-grams (char-ngrams.ts, stopwords out), weighted `(1 + ln tf) * idf` with
 * `idf = ln((1 + N) / (1 + df)) + 1` and normalised (scikit-learn's TfidfVectorizer(sublinear_tf=True), 'char_wb');
 * grams no chunk has are left out; a chunk scores the cosine, ties by corpus position. Chunk weights are single
 * precision so large corpora fit (docs/scaling.md, "Why the code is shaped as it is").
 */
export class CharNgramRetriever implements Retriever {
  readonly #chunks: readonly Chunk[]
  /** Each chunk's corpus position, the tie-break of equal scores. */
  readonly #ordinal: Float64Array
  readonly #gramIds = new Map<string, number>()
  /** Gram ids of each distinct word met, so a repeated word is cut into grams once. */
  readonly #wordGrams = new Map<string, Int32Array>()
  readonly #idf: Float64Array
  /** Gram g's postings: chunk ids ascending in #postingChunk[#postingStart[g] ..< #postingStart[g + 1]], with its unit-vector weights. */
  readonly #postingStart: Int32Array
  readonly #postingChunk: Int32Array
  readonly #postingWeight: Float32Array
  /** Scratch space of `search`, all zero between calls. */
  readonly #score: Float64Array
  readonly #touched: Int32Array

  constructor(chunks: readonly Chunk[]) {
    this.#chunks = chunks
    this.#ordinal = Float64Array.from(chunks, (chunk) => chunk.ordinal)
    const n = chunks.length
    // Pass 1: each chunk's distinct grams and their counts, chunk after chunk.
    const chunkStart = new Int32Array(n + 1)
    const grams = new IntList()
    const counts = new IntList()
    const df = new IntList()
    const chunkCounts = new Map<number, number>()
    for (let id = 0; id < n; id++) {
      chunkCounts.clear()
      for (const gram of this.#gramsOf(chunks[id]!.text, true)) chunkCounts.set(gram, (chunkCounts.get(gram) ?? 0) + 1)
      chunkStart[id] = grams.length
      for (const [gram, count] of chunkCounts) {
        grams.push(gram)
        counts.push(count)
        while (df.length <= gram) df.push(0)
        df.values[gram]!++
      }
    }
    chunkStart[n] = grams.length
    const gramCount = this.#gramIds.size
    this.#idf = new Float64Array(gramCount)
    for (let g = 0; g < gramCount; g++) this.#idf[g] = Math.log((1 + n) / (1 + df.values[g]!)) + 1
    // Pass 2: postings by gram, weights divided by each chunk's vector length.
    this.#postingStart = new Int32Array(gramCount + 1)
    for (let g = 0; g < gramCount; g++) this.#postingStart[g + 1] = this.#postingStart[g]! + df.values[g]!
    const fill = this.#postingStart.slice(0, gramCount)
    this.#postingChunk = new Int32Array(grams.length)
    this.#postingWeight = new Float32Array(grams.length)
    // Each (chunk, gram) weight once: summed for the chunk's vector length, then divided by it.
    const weights = new Float64Array(grams.length)
    for (let id = 0; id < n; id++) {
      let squares = 0
      for (let i = chunkStart[id]!; i < chunkStart[id + 1]!; i++) {
        const weight = (1 + Math.log(counts.values[i]!)) * this.#idf[grams.values[i]!]!
        weights[i] = weight
        squares += weight * weight
      }
      const norm = Math.sqrt(squares)
      for (let i = chunkStart[id]!; i < chunkStart[id + 1]!; i++) {
        const at = fill[grams.values[i]!]!++
        this.#postingChunk[at] = id
        this.#postingWeight[at] = weights[i]! / norm
      }
    }
    this.#score = new Float64Array(n)
    this.#touched = new Int32Array(n)
  }

  /** Gram ids of a text's words, with repeats; `learn` adds grams the index has not met (indexing only). */
  #gramsOf(text: string, learn: boolean): number[] {
    const ids: number[] = []
    for (const word of tokenizeWords(text)) {
      if (isStopword(word)) continue
      let wordGrams = this.#wordGrams.get(word)
      if (!wordGrams) {
        const known: number[] = []
        for (const gram of charNgrams(word)) {
          let id = this.#gramIds.get(gram)
          if (id === undefined && learn) this.#gramIds.set(gram, (id = this.#gramIds.size))
          if (id !== undefined) known.push(id)
        }
        wordGrams = Int32Array.from(known)
        // Only complete lists are cached: a query word may have grams that no chunk has.
        if (learn) this.#wordGrams.set(word, wordGrams)
      }
      for (const id of wordGrams) ids.push(id)
    }
    return ids
  }

  search(query: string, depth: number): ScoredChunk[] {
    const queryCounts = new Map<number, number>()
    for (const gram of this.#gramsOf(query, false)) queryCounts.set(gram, (queryCounts.get(gram) ?? 0) + 1)
    const queryWeights: [number, number][] = []
    let squares = 0
    for (const [gram, count] of queryCounts) {
      const weight = (1 + Math.log(count)) * this.#idf[gram]!
      queryWeights.push([gram, weight])
      squares += weight * weight
    }
    if (squares === 0) return []
    const norm = Math.sqrt(squares)
    const score = this.#score
    const touched = this.#touched
    let touchedCount = 0
    for (const [gram, weight] of queryWeights) {
      const unit = weight / norm
      for (let p = this.#postingStart[gram]!; p < this.#postingStart[gram + 1]!; p++) {
        const id = this.#postingChunk[p]!
        if (score[id] === 0) touched[touchedCount++] = id
        score[id]! += unit * this.#postingWeight[p]!
      }
    }
    // Keep the best `depth` by (score desc, corpus position asc) (bestOf).
    const keep = Math.min(touchedCount, Math.max(0, Math.trunc(depth)))
    const best = bestOf(touched, touchedCount, keep, score, this.#ordinal)
    const results = best.map((id) => ({ chunk: this.#chunks[id]!, score: score[id]! }))
    for (let i = 0; i < touchedCount; i++) score[touched[i]!] = 0
    return results
  }
}
