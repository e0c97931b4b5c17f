import { describe, expect, it } from 'vitest'
import { loadCorpus } from '../load/corpus.ts'
import { Bm25Retriever } from './bm25-retriever.ts'
import { createBuiltinSystem } from './builtin-system.ts'
import { CharNgramRetriever } from './char-ngram-retriever.ts'
import { chunkCorpus, type Chunk } from './chunker.ts'
import { createHybridRetriever } from './hybrid-retriever.ts'
import { DEFAULT_RETRIEVER_OPTIONS, RetrieverOptionsSchema } from '../contract/retriever-options.ts'

function chunkOf(ordinal: number, text: string): Chunk {
  return { chunkId: `d${ordinal}#1`, docId: `d${ordinal}`, ordinal, heading: '', text, tokens: 0 }
}

describe('createHybridRetriever', () => {
  const corpus = [
    chunkOf(0, 'Retention policy: logs are deleted after thirty days.'),
    chunkOf(1, 'Tail sampling keeps traces by their sampling rate override.'),
    chunkOf(2, 'The sampling rate of metrics is fixed.'),
  ]
  it('fuses the BM25 and n-gram rankings by reciprocal rank (hand-worked, k = 60)', () => {
    // BM25 ranks d1 (sampling ×2, rate, override) then d2 (sampling, rate); the n-gram path, for the same
    // query, ranks them the same way; d0 shares nothing. d1: 2/61, d2: 2/62.
    const query = 'sampling rate override'
    expect(new Bm25Retriever(corpus).search(query, 10).map(({ chunk }) => chunk.chunkId)).toEqual(['d1#1', 'd2#1'])
    expect(
      new CharNgramRetriever(corpus)
        .search(query, 10)
        .map(({ chunk }) => chunk.chunkId)
        .slice(0, 2),
    ).toEqual(['d1#1', 'd2#1'])
    const hybrid = createHybridRetriever(corpus, DEFAULT_RETRIEVER_OPTIONS)
    expect(hybrid.search(query, 2).map(({ chunk, score }) => [chunk.chunkId, score])).toEqual([
      ['d1#1', expect.closeTo(2 / 61, 15)],
      ['d2#1', expect.closeTo(2 / 62, 15)],
    ])
  })
  it('still ranks a typo query, through the n-gram path alone (score 1/61 for its first result)', () => {
    const results = createHybridRetriever(corpus, { ...DEFAULT_RETRIEVER_OPTIONS, rrfK: 60 }).search('samplng overide', 5)
    expect(results[0]).toMatchObject({ chunk: { chunkId: 'd1#1' }, score: expect.closeTo(1 / 61, 15) })
  })
})

describe('RetrieverOptionsSchema and the built-in system', () => {
  it('defaults to BM25 as Lucene scores it (possessives dropped, title weight 1) and names bad values', () => {
    expect(DEFAULT_RETRIEVER_OPTIONS).toEqual({
      kind: 'bm25',
      coordination: false,
      k1: 1.2,
      b: 0.75,
      delta: 0,
      possessives: true,
      titleWeight: 1,
      rrfK: 60,
    })
    const bad = RetrieverOptionsSchema.safeParse({ b: 2 })
    expect(bad.success).toBe(false)
    expect(bad.error?.issues[0]?.path).toEqual(['b'])
  })
  it('ranks by the default options when given none, and by the hybrid retriever when asked', async () => {
    const docs = loadCorpus('corpus')
    const config = {
      chunkTokens: 160,
      chunkOverlap: 32,
      rankDepth: 20,
      budgetTokens: 600,
      refusalThreshold: 0.5,
      answerSentences: 3,
      generate: false,
    }
    const question = { id: 'q', question: 'How is the trace sampling rate overridden?', userContext: null }
    const chunks = chunkCorpus(docs, config)
    const expected = new Bm25Retriever(chunks).search(question.question, 20).map(({ chunk, score }) => [chunk.chunkId, score])
    expect(expected).toHaveLength(20)
    const builtin = createBuiltinSystem(docs, config)
    expect(builtin.name).toBe('builtin-bm25')
    expect((await builtin.answer(question)).ranked.map(({ chunkId, score }) => [chunkId, score])).toEqual(expected)
    const hybrid = createBuiltinSystem(docs, { ...config, retrieval: { ...DEFAULT_RETRIEVER_OPTIONS, kind: 'hybrid' } })
    expect(hybrid.name).toBe('builtin-hybrid')
    const fused = createHybridRetriever(chunks, { ...DEFAULT_RETRIEVER_OPTIONS, kind: 'hybrid' }).search(question.question, 20)
    expect((await hybrid.answer(question)).ranked.map(({ chunkId }) => chunkId)).toEqual(fused.map(({ chunk }) => chunk.chunkId))
  })
})
