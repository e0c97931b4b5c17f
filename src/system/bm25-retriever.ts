import MiniSearch from 'minisearch'
import type { Chunk } from './chunker.ts'
import { termOf, tokenizeWords } from './text-analyzer.ts'

export interface ScoredChunk {
  chunk: Chunk
  score: number
}

/**
 * BM25 retrieval over chunks through MiniSearch (a maintained, dependency-free full-text index). Its
 * scoring is BM25+ (k1 = 1.2, b = 0.7, d = 0.5) and favours chunks matching more distinct query terms.
 * Terms: lower-cased words minus English stopwords, Porter-stemmed (text-analyzer.ts), so the index and
 * the queries are analysed alike. Equal scores are ordered by corpus position, so rankings are stable.
 */
export class Bm25Retriever {
  readonly #index: MiniSearch<{ id: number; text: string }>
  readonly #chunks: readonly Chunk[]

  constructor(chunks: readonly Chunk[]) {
    this.#chunks = chunks
    this.#index = new MiniSearch({
      fields: ['text'],
      tokenize: tokenizeWords,
      processTerm: termOf,
    })
    this.#index.addAll(chunks.map((chunk, id) => ({ id, text: chunk.text })))
  }

  /** The `depth` best chunks for a query, best first. Chunks sharing no term with the query are not ranked. */
  search(query: string, depth: number): ScoredChunk[] {
    return this.#index
      .search(query, { tokenize: tokenizeWords, processTerm: termOf })
      .map((result) => ({ chunk: this.#chunks[result.id as number]!, score: result.score }))
      .sort((a, b) => b.score - a.score || a.chunk.ordinal - b.chunk.ordinal)
      .slice(0, depth)
  }
}
