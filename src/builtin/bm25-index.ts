import type { Chunk } from './chunker.ts'
import type { RetrieverOptions } from '../contract/retriever-options.ts'
import { contentTerms, indexWords, termOf } from '../text/text-analyzer.ts'
import { IntBlocks, IntList } from './int-list.ts'
import { asciiWordSpans } from '../text/ascii-word-spans.ts'
import { fnv1a } from '../text/text-spans.ts'
import { SpanTable } from '../text/span-table.ts'

export type Bm25Options = Pick<RetrieverOptions, 'coordination' | 'k1' | 'b' | 'delta' | 'possessives' | 'titleWeight'>

/**
 * What a BM25 search reads: term ids, and term t's postings, chunk ids ascending in postingChunk[postingStart[t] ..<
 * postingStart[t + 1]], each with its weight (the BM25F score after the idf, computed once, not per query).
 */
export interface Bm25Index {
  /** Term -> term id, ids 0, 1, 2... in insertion order (so the keys, in order, are the terms by id). */
  termIds: ReadonlyMap<string, number>
  postingStart: Int32Array
  postingChunk: Int32Array
  postingWeight: Float64Array
}

const APOSTROPHE = 0x27
const LOWER_S = 0x73

/** Builds a BM25 index chunk by chunk (in corpus order), so it can grow while the chunks are being cut. */
export interface Bm25IndexBuilder {
  /** The next chunk: its text (which holds its heading line) and its heading path, the title field. */
  add(text: string, heading: string): void
  /** The index of every chunk added, in the order added. */
  finish(): Bm25Index
  /** After finish(): each content term's number of chunks (the offline answerer's weights), counted in the index's own scan. */
  contentTermFrequencies(): Map<string, number>
}

/**
 * A builder of the BM25 index (options all given), which also counts the chunks' content terms in the same scan
 * (docs/scaling.md, "Large golden sets"): index terms stand for content terms when the text is ASCII, no possessive
 * was cut and the heading added no term; any other chunk is analysed again and its counts corrected.
 */
export function bm25IndexBuilder(options: Bm25Options): Bm25IndexBuilder {
  const { titleWeight } = options
  const titled = titleWeight > 0
  const vocabulary = new Vocabulary()
  const { termIds, wordTerm, textSeen, titleSeen, df, termSeen, textFreq, titleFreq } = vocabulary
  const idOfWord = (word: string): number => vocabulary.idOf(word)
  // ASCII texts are scanned once and their words looked up by span, the way contentTerms does: no string per word met before.
  const wordAt = new SpanTable(idOfWord)
  // Whether the last text scanned was ASCII with no word changed by the possessive filter.
  const scan = { plain: true }
  const wordIdsOf = (text: string): Int32Array => wordIdsOfText(text, options, wordAt, idOfWord, scan)
  // The chunks whose content terms are not their index terms: their index terms by id, their content terms by term.
  const otherIndexTerms = new Map<number, number>()
  const otherContentTerms = new Map<string, number>()
  let finished = false
  // A section's heading starts each of its chunks: analysed once.
  const headingWords = new Map<string, Int32Array>()
  // Pass 1, chunk by chunk: each chunk's distinct terms (in the order first met) with their frequencies in
  // the text and the heading, appended to the pair lists once the chunk is counted.
  const lengths = new IntList()
  const titleLengths = new IntList()
  const chunkStart = new IntList()
  const pairTerm = new IntBlocks()
  const pairFreq = new IntBlocks()
  const pairTitleFreq = new IntBlocks()
  /** The current chunk's distinct terms. */
  const chunkTerms = new IntList()
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
      if (termSeen.values[termId] !== stamp) {
        termSeen.values[termId] = stamp
        chunkTerms.push(termId)
        textFreq.values[termId] = 0
        titleFreq.values[termId] = 0
        df.values[termId]!++
      }
      frequencies.values[termId]!++
    }
    return length
  }
  return {
    add(text, heading) {
      const id = lengths.length
      chunkStart.push(pairTerm.length)
      chunkTerms.length = 0
      const length = count(wordIdsOf(text), id + 1, textSeen, textFreq)
      const plain = scan.plain
      const textTerms = chunkTerms.length
      lengths.push(length)
      // Accumulated as MiniSearch does, not as a sum over n: its scores stay the same to the bit.
      averageLength = (averageLength * id + length) / (id + 1)
      let titleLength = 0
      if (titled) {
        let ids = headingWords.get(heading)
        if (!ids) headingWords.set(heading, (ids = wordIdsOf(heading)))
        titleLength = count(ids, id + 1, titleSeen, titleFreq)
        averageTitleLength = (averageTitleLength * id + titleLength) / (id + 1)
      }
      titleLengths.push(titleLength)
      if (!plain || chunkTerms.length > textTerms) {
        for (let k = 0; k < chunkTerms.length; k++) {
          const termId = chunkTerms.values[k]!
          otherIndexTerms.set(termId, (otherIndexTerms.get(termId) ?? 0) + 1)
        }
        for (const term of new Set(contentTerms(text))) otherContentTerms.set(term, (otherContentTerms.get(term) ?? 0) + 1)
      }
      for (let k = 0; k < chunkTerms.length; k++) {
        const termId = chunkTerms.values[k]!
        pairTerm.push(termId)
        pairFreq.push(textFreq.values[termId]!)
        pairTitleFreq.push(titleFreq.values[termId]!)
      }
    },
    finish() {
      chunkStart.push(pairTerm.length)
      finished = true
      return postingsByTerm(options, termIds, df, {
        lengths,
        titleLengths,
        averageLength,
        averageTitleLength,
        chunkStart,
        pairTerm,
        pairFreq,
        pairTitleFreq,
      })
    },
    contentTermFrequencies() {
      if (!finished) throw new Error('contentTermFrequencies: before finish()')
      const counts = new Map<string, number>()
      for (const [term, termId] of termIds) {
        const chunks = df.values[termId]! - (otherIndexTerms.get(termId) ?? 0) + (otherContentTerms.get(term) ?? 0)
        if (chunks > 0) counts.set(term, chunks)
      }
      for (const [term, chunks] of otherContentTerms) if (!termIds.has(term)) counts.set(term, chunks)
      return counts
    },
  }
}

/** Every distinct word once: its id, and its term's id (-1 for a stopword), so a word costs one lookup; and per-word and per-term counters. */
class Vocabulary {
  /** Term -> term id, in insertion order. */
  readonly termIds = new Map<string, number>()
  readonly wordIds = new Map<string, number>()
  readonly wordTerm = new IntList()
  /** Per word id: the last chunk (+ 1) whose text, and whose heading, counted it towards its length. */
  readonly textSeen = new IntList()
  readonly titleSeen = new IntList()
  /** Per term id: its document frequency, the chunk (+ 1) it was last met in, and its frequencies in that chunk's text and heading. */
  readonly df = new IntList()
  readonly termSeen = new IntList()
  readonly textFreq = new IntList()
  readonly titleFreq = new IntList()

  idOf(word: string): number {
    let id = this.wordIds.get(word)
    if (id === undefined) {
      id = this.wordIds.size
      this.wordIds.set(word, id)
      const term = termOf(word)
      let termId = term ? this.termIds.get(term) : -1
      if (termId === undefined) {
        this.termIds.set(term!, (termId = this.termIds.size))
        this.df.push(0)
        this.termSeen.push(0)
        this.textFreq.push(0)
        this.titleFreq.push(0)
      }
      this.wordTerm.push(termId)
      this.textSeen.push(0)
      this.titleSeen.push(0)
    }
    return id
  }
}

/**
 * The word ids of a text, as indexWords cuts it; ASCII texts scanned once, their words looked up by span.
 * `scan.plain`: whether the text was ASCII and the possessive filter changed none of its words.
 */
function wordIdsOfText(
  text: string,
  options: Bm25Options,
  wordAt: SpanTable<number>,
  idOfWord: (word: string) => number,
  scan: { plain: boolean },
): Int32Array {
  const lower = text.toLowerCase()
  const spans = asciiWordSpans(lower)
  scan.plain = spans !== null
  if (spans === null) return Int32Array.from(indexWords(text, options), idOfWord)
  const { count, starts, ends, hashes } = spans
  const ids = new Int32Array(count)
  for (let k = 0; k < count; k++) {
    const start = starts[k]!
    let end = ends[k]!
    let hash = hashes[k]!
    // indexWords' possessive filter: a word ending in "'s" (a word starts with a letter or digit, so it is longer) loses it.
    if (options.possessives && lower.charCodeAt(end - 1) === LOWER_S && lower.charCodeAt(end - 2) === APOSTROPHE) {
      end -= 2
      hash = fnv1a(lower, start, end)
      scan.plain = false
    }
    ids[k] = wordAt.get(lower, start, end, hash)
  }
  return ids
}

/** What pass 1 counted: per chunk its lengths and where its (term, frequencies) pairs start, the pairs in chunk order. */
interface CountedChunks {
  lengths: IntList
  titleLengths: IntList
  averageLength: number
  averageTitleLength: number
  /** Chunk id -> its first pair, with one more entry: the end of the last chunk's pairs. */
  chunkStart: IntList
  pairTerm: IntBlocks
  pairFreq: IntBlocks
  pairTitleFreq: IntBlocks
}

/** Pass 2 of the build: the postings of each term from the chunks' pairs, with their weights. */
function postingsByTerm(
  options: Bm25Options,
  termIds: ReadonlyMap<string, number>,
  df: IntList,
  counted: CountedChunks,
): Bm25Index {
  const { k1, b, delta, titleWeight } = options
  const titled = titleWeight > 0
  const { lengths, titleLengths, averageLength, averageTitleLength, chunkStart, pairTerm, pairFreq, pairTitleFreq } = counted
  const n = lengths.length
  // Pass 2: the pairs by term (chunk ids ascending), each with its weight, by the same expressions the query loop
  // once evaluated per posting, so every score stays the same to the bit.
  const norm = Float64Array.from(lengths.values.subarray(0, n), (length) => 1 - b + (b * length) / averageLength)
  const titleNorm = Float64Array.from(titleLengths.values.subarray(0, n), (length) => 1 - b + (b * length) / averageTitleLength)
  const termCount = termIds.size
  const postingStart = new Int32Array(termCount + 1)
  for (let t = 0; t < termCount; t++) postingStart[t + 1] = postingStart[t]! + df.values[t]!
  const fill = postingStart.slice(0, termCount)
  const postingChunk = new Int32Array(pairTerm.length)
  const postingWeight = new Float64Array(pairTerm.length)
  for (let id = 0; id < n; id++) {
    for (let i = chunkStart.values[id]!; i < chunkStart.values[id + 1]!; i++) {
      const at = fill[pairTerm.at(i)]!++
      const tf = pairFreq.at(i)
      let weight: number
      if (!titled) {
        // This exact expression (not the BM25F one below with w = 0) keeps MiniSearch's scores to the bit.
        weight = delta + (tf * (k1 + 1)) / (tf + k1 * norm[id]!)
      } else {
        const titleTf = pairTitleFreq.at(i)
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

/** The BM25 index of chunks with options (all given: Bm25Retriever fills in the defaults). */
export function buildBm25Index(chunks: readonly Chunk[], options: Bm25Options): Bm25Index {
  const builder = bm25IndexBuilder(options)
  for (const chunk of chunks) builder.add(chunk.text, chunk.heading)
  return builder.finish()
}
