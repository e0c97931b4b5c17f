import type { Chunk } from './chunker.ts'

export interface ScoredChunk {
  chunk: Chunk
  /** The retriever's score, higher is better; comparable only within one ranking. */
  score: number
}

/** Ranks the chunks of a corpus for a query: the built-in BM25, character n-gram and hybrid retrievers. */
export interface Retriever {
  /** The `depth` best chunks for a query, best first; chunks with nothing in common with the query are not ranked. */
  search(query: string, depth: number): ScoredChunk[]
}
