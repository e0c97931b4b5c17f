import { Bm25Retriever } from './bm25-retriever.ts'
import type { Chunk } from './chunker.ts'
import { createHybridRetriever } from './hybrid-retriever.ts'
import type { Retriever } from './retriever.ts'
import type { RetrieverOptions } from '../config/retriever-options.ts'

/** The built-in retriever the options name: BM25 alone, or BM25 fused with character n-grams. */
export function createRetriever(chunks: readonly Chunk[], options: RetrieverOptions): Retriever {
  return options.kind === 'hybrid' ? createHybridRetriever(chunks, options) : new Bm25Retriever(chunks, options)
}
