import { describe, expect, it } from 'vitest'
import { resolveEvalConfig } from '../config/eval-config.ts'
import { MINISEARCH_RETRIEVER_OPTIONS } from '../contract/retriever-options.ts'
import { loadCorpus } from '../load/corpus.ts'
import { createBuiltinSystem } from '../builtin/builtin-system.ts'
import { buildCorpusWithIndexThread } from './corpus-index-thread.ts'

// A worker thread's start and its modules' loading take seconds on a busy machine: the verdict waits for it.

describe('building a corpus with its index on a second thread', () => {
  const corpus = loadCorpus('corpus')

  it.each([
    ['the defaults, answering offline', resolveEvalConfig({}, {}, 'test config'), true],
    [
      'small chunks, MiniSearch scoring, retrieval only',
      resolveEvalConfig({ chunkTokens: 48, chunkOverlap: 8, retrieval: MINISEARCH_RETRIEVER_OPTIONS }, {}, 'test config'),
      false,
    ],
  ])('makes the same chunks, BM25 index (to the bit) and answerer frequencies as one thread: %s', async (_, config, offline) => {
    const alone = createBuiltinSystem(corpus, { ...config, generate: offline }).built
    const threaded = await buildCorpusWithIndexThread(corpus, config)
    expect(threaded.chunks).toEqual(alone.chunks)
    expect([...threaded.bm25.termIds]).toEqual([...alone.bm25.termIds])
    expect(threaded.bm25.postingStart).toEqual(alone.bm25.postingStart)
    expect(threaded.bm25.postingChunk).toEqual(alone.bm25.postingChunk)
    expect(threaded.bm25.postingWeight).toEqual(alone.bm25.postingWeight)
    // The same counts, in the same order (terms as first met in corpus order).
    expect([...threaded.answererDf]).toEqual([...alone.answererDf])
    expect(threaded.answererDf.size).toBeGreaterThan(100)
  })
})
