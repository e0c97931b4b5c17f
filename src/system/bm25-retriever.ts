import type { Chunk } from './chunker.ts'
import type { Retriever, ScoredChunk } from './retriever.ts'
import { DEFAULT_RETRIEVER_OPTIONS } from '../config/retriever-options.ts'
import { buildBm25Index, type Bm25Index, type Bm25Options } from './bm25-index.ts'
import { Bm25Ranker } from './bm25-ranker.ts'

/** BM25 retrieval over chunks (the scoring: Bm25Ranker). */
export class Bm25Retriever implements Retriever {
  readonly #chunks: readonly Chunk[]
  /** The ranking itself, over chunk ids: a thread ranking ahead (search-thread.ts) makes its own from the same parts. */
  readonly ranker: Bm25Ranker

  /**
   * Options left out take their defaults (retriever-options.ts: Lucene's scoring); MINISEARCH_RETRIEVER_OPTIONS
   * reproduce MiniSearch's scores. `index`: one buildBm25Index made of these chunks with these options (a built
   * corpus kept between runs: run/built-corpus-cache.ts), else built here.
   */
  constructor(chunks: readonly Chunk[], options: Partial<Bm25Options> = {}, index?: Bm25Index) {
    const all = { ...DEFAULT_RETRIEVER_OPTIONS, ...options }
    this.#chunks = chunks
    this.ranker = new Bm25Ranker(Float64Array.from(chunks, (chunk) => chunk.ordinal), all, index ?? buildBm25Index(chunks, all))
  }

  /** The `depth` best chunks for a query, best first. Chunks sharing no term with the query are not ranked. */
  search(query: string, depth: number): ScoredChunk[] {
    const { ids, scores } = this.ranker.rank(query, depth)
    return ids.map((id, i) => ({ chunk: this.#chunks[id]!, score: scores[i]! }))
  }
}
