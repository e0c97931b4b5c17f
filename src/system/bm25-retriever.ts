import type { Chunk } from './chunker.ts'
import type { Retriever, ScoredChunk } from './retriever.ts'
import { DEFAULT_RETRIEVER_OPTIONS, type RetrieverOptions } from '../config/retriever-options.ts'
import { indexWords, termOf } from './text-analyzer.ts'
import { bestOf } from './best-of.ts'
import { IntList } from './int-list.ts'

export type Bm25Options = Pick<RetrieverOptions, 'coordination' | 'k1' | 'b' | 'delta' | 'possessives' | 'titleWeight'>

/**
 * What a BM25 search reads, fixed once built: each term's id, and the postings of term t, chunk ids in
 * postingChunk[postingStart[t] ..< postingStart[t + 1]], ascending, each with the term's weight in that
 * chunk: the part of its BM25 (BM25F) score after the idf, computed once, not per posting per query.
 */
export interface Bm25Index {
  /** Term -> term id, ids 0, 1, 2... in insertion order (so the keys, in order, are the terms by id). */
  termIds: ReadonlyMap<string, number>
  postingStart: Int32Array
  postingChunk: Int32Array
  postingWeight: Float64Array
}

/** The BM25 index of chunks with options (all given: Bm25Retriever fills in the defaults). */
export function buildBm25Index(chunks: readonly Chunk[], options: Bm25Options): Bm25Index {
  const { k1, b, delta, titleWeight } = options
  const titled = titleWeight > 0
  const n = chunks.length
  const termIds = new Map<string, number>()
  // Every distinct word once: its id, and its term's id (-1 for a stopword), so a word costs one lookup.
  const wordIds = new Map<string, number>()
  const wordTerm = new IntList()
  /** Per word id: the last chunk (+ 1) whose text, and whose heading, counted it towards its length. */
  const textSeen = new IntList()
  const titleSeen = new IntList()
  const wordIdsOf = (text: string): Int32Array => {
    const words = indexWords(text, options)
    const ids = new Int32Array(words.length)
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!
      let id = wordIds.get(word)
      if (id === undefined) {
        id = wordIds.size
        wordIds.set(word, id)
        const term = termOf(word)
        let termId = term ? termIds.get(term) : -1
        if (termId === undefined) termIds.set(term!, (termId = termIds.size))
        wordTerm.push(termId)
        textSeen.push(0)
        titleSeen.push(0)
      }
      ids[i] = id
    }
    return ids
  }
  // A section's heading starts each of its chunks: analysed once.
  const headingWords = new Map<string, Int32Array>()
  // Pass 1, chunk by chunk: each chunk's distinct terms with their frequencies in the text and the heading.
  const lengths = new Int32Array(n)
  const titleLengths = new Int32Array(n)
  const pairTerm = new IntList()
  const pairFreq = new IntList()
  const pairTitleFreq = new IntList()
  const df = new IntList()
  /** Per term id: the chunk (+ 1) it was last met in, and where that chunk's pair of it is. */
  const termSeen = new IntList()
  const termPair = new IntList()
  let averageLength = 0
  let averageTitleLength = 0
  const count = (ids: Int32Array, stamp: number, seen: IntList, frequencies: IntList): number => {
    let length = 0
    for (const id of ids) {
      if (seen.values[id] !== stamp) {
        seen.values[id] = stamp
        length++
      }
      const termId = wordTerm.values[id]!
      if (termId < 0) continue
      while (termSeen.length <= termId) {
        termSeen.push(0)
        termPair.push(0)
        df.push(0)
      }
      if (termSeen.values[termId] !== stamp) {
        termSeen.values[termId] = stamp
        termPair.values[termId] = pairTerm.length
        pairTerm.push(termId)
        pairFreq.push(0)
        pairTitleFreq.push(0)
        df.values[termId]!++
      }
      frequencies.values[termPair.values[termId]!]!++
    }
    return length
  }
  const chunkStart = new Int32Array(n + 1)
  for (let id = 0; id < n; id++) {
    const chunk = chunks[id]!
    chunkStart[id] = pairTerm.length
    const length = count(wordIdsOf(chunk.text), id + 1, textSeen, pairFreq)
    lengths[id] = length
    averageLength = (averageLength * id + length) / (id + 1)
    if (titled) {
      let ids = headingWords.get(chunk.heading)
      if (!ids) headingWords.set(chunk.heading, (ids = wordIdsOf(chunk.heading)))
      const titleLength = count(ids, id + 1, titleSeen, pairTitleFreq)
      titleLengths[id] = titleLength
      averageTitleLength = (averageTitleLength * id + titleLength) / (id + 1)
    }
  }
  chunkStart[n] = pairTerm.length
  // Pass 2: the pairs by term (chunk ids ascending within each), each with its weight. BM25's length
  // normalisation 1 - b + b x length / average length (length = distinct words) per chunk, then the same
  // expressions the query loop once evaluated per posting, so every score stays the same to the bit.
  const norm = Float64Array.from(lengths, (length) => 1 - b + (b * length) / averageLength)
  const titleNorm = Float64Array.from(titleLengths, (length) => 1 - b + (b * length) / averageTitleLength)
  const termCount = termIds.size
  const postingStart = new Int32Array(termCount + 1)
  for (let t = 0; t < termCount; t++) postingStart[t + 1] = postingStart[t]! + (df.values[t] ?? 0)
  const fill = postingStart.slice(0, termCount)
  const postingChunk = new Int32Array(pairTerm.length)
  const postingWeight = new Float64Array(pairTerm.length)
  for (let id = 0; id < n; id++) {
    for (let i = chunkStart[id]!; i < chunkStart[id + 1]!; i++) {
      const at = fill[pairTerm.values[i]!]!++
      const tf = pairFreq.values[i]!
      let weight: number
      if (!titled) {
        // This exact expression (not the BM25F one below with w = 0) keeps MiniSearch's scores to the bit.
        weight = delta + (tf * (k1 + 1)) / (tf + k1 * norm[id]!)
      } else {
        const titleTf = pairTitleFreq.values[i]!
        let pseudo = tf === 0 ? 0 : tf / norm[id]!
        if (titleTf > 0) pseudo += (titleWeight * titleTf) / titleNorm[id]!
        weight = delta + (pseudo * (k1 + 1)) / (k1 + pseudo)
      }
      postingChunk[at] = id
      postingWeight[at] = weight
    }
  }
  return { termIds, postingStart, postingChunk, postingWeight }
}

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
