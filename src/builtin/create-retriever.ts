import type { Bm25Index } from './bm25-index.ts'
import { Bm25Retriever } from './bm25-retriever.ts'
import type { Chunk } from './chunker.ts'
import { createHybridRetriever } from './hybrid-retriever.ts'
import type { Retriever } from './retriever.ts'
import type { RetrieverOptions } from '../contract/retriever-options.ts'

/** The built-in retriever the options name (BM25, or hybrid); `bm25`: the chunks' BM25 index, if built already. */
export function createRetriever(chunks: readonly Chunk[], options: RetrieverOptions, bm25?: Bm25Index): Retriever {
  return options.kind === 'hybrid' ? createHybridRetriever(chunks, options, bm25) : new Bm25Retriever(chunks, options, bm25)
}
