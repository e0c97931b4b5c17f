import type { Bm25Index } from './bm25-index.ts'
import { Bm25Retriever } from './bm25-retriever.ts'
import { CharNgramRetriever } from './char-ngram-retriever.ts'
import type { Chunk } from './chunker.ts'
import { fuse } from './rank-fusion.ts'
import type { Retriever, ScoredChunk } from './retriever.ts'
import type { RetrieverOptions } from '../contract/retriever-options.ts'

/**
 * BM25 (with the given options) and character n-gram TF-IDF cosine, fused by reciprocal rank fusion with
 * k = `rrfK`: each path ranks `depth` chunks and the fused list keeps the best `depth`. A chunk's score is
 * its fusion score. The two paths fail differently (BM25 misses typos and unseen word forms, n-grams dilute
 * rare names among common grams), which is what fusion needs to help. `bm25Index`: the chunks' BM25 index, if built already.
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
