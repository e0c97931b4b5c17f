import { describe, expect, it } from 'vitest'
import { loadCorpus } from '../load/corpus.ts'
import { completeRanking, createBuiltinSystem, MIN_RANKED_CHUNKS } from './builtin-system.ts'
import { chunkCorpus } from './chunker.ts'

describe('the built-in system', () => {
  const options = { chunkTokens: 160, chunkOverlap: 32, rankDepth: 50, budgetTokens: 600, refusalThreshold: 0.5, answerSentences: 3, generate: false }
  const corpus = loadCorpus('corpus')

  it('ranks at least 20 chunks even for a question few chunks share a term with', async () => {
    const system = createBuiltinSystem(corpus, options)
    const { ranked } = await system.answer({ id: 'x', question: 'How much is the home office stipend?' })
    expect(ranked.length).toBeGreaterThanOrEqual(MIN_RANKED_CHUNKS)
    // BM25 hits first, then score-0 filler: scores never increase down the list.
    expect(ranked.every((chunk, i) => i === 0 || chunk.score <= ranked[i - 1]!.score)).toBe(true)
    expect(new Set(ranked.map((c) => c.chunkId)).size).toBe(ranked.length)
  })

  it('completes a short ranking with unranked chunks in corpus order, score 0', () => {
    const chunks = chunkCorpus(corpus, options)
    const found = [{ chunk: chunks[5]!, score: 3.5 }]
    const completed = completeRanking(found, chunks)
    expect(completed).toHaveLength(MIN_RANKED_CHUNKS)
    expect(completed[0]).toEqual({ chunk: chunks[5], score: 3.5 })
    expect(completed.slice(1).map((r) => [r.chunk.ordinal, r.score])).toEqual(
      [0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19].map((ordinal) => [ordinal, 0]),
    )
  })

  it('leaves a long enough ranking as it is', () => {
    const chunks = chunkCorpus(corpus, options)
    const found = chunks.slice(0, 25).map((chunk, i) => ({ chunk, score: 30 - i }))
    expect(completeRanking(found, chunks)).toEqual(found)
  })
})
