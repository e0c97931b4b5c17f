import type { Bm25Index } from './bm25-index.ts'
import { Bm25Retriever } from './bm25-retriever.ts'
import { CharNgramRetriever } from './char-ngram-retriever.ts'
import type { Chunk } from './chunker.ts'
import { fuse } from './rank-fusion.ts'
import type { Retriever, ScoredChunk } from './retriever.ts'
import type { RetrieverOptions } from '../contract/retriever-options.ts'

/**
 * BM25 and character n-gram cosine, each ranking `depth` chunks, fused by reciprocal rank (k = `rrfK`), scored by
 * fusion: the two fail differently (typos against rare names), which fusion needs. `bm25Index`: if built already.
 */
export function createHybridRetriever(chunks: readonly Chunk[], options: RetrieverOptions, bm25Index?: Bm25Index): Retriever {
  const bm25 = new Bm25Retriever(chunks, options, bm25Index)
  const ngrams = new CharNgramRetriever(chunks)
  const ranked = (results: readonly ScoredChunk[]) => results.map(({ chunk }) => ({ id: chunk.chunkId, chunk }))
  return {
    search(query, depth) {
      return fuse([ranked(bm25.search(query, depth)), ranked(ngrams.search(query, depth))], { k: options.rrfK })
        .slice(0, Math.max(0, depth))
        .map(({ item, score }) => ({ chunk: item.chunk, score }))
    },
  }
}
