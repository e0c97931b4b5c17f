import MiniSearch from 'minisearch'
import { describe, expect, it } from 'vitest'
import { loadCorpus } from '../load/corpus.ts'
import { loadGoldenSet } from '../load/golden-set.ts'
import { Bm25Retriever } from './bm25-retriever.ts'
import { chunkCorpus } from './chunker.ts'
import { termOf, tokenizeWords } from './text-analyzer.ts'

/**
 * Bm25Retriever reproduces MiniSearch's BM25+ scoring with a leaner index (MiniSearch took 48 s on the
 * 10,000-document benchmark). This test holds it to MiniSearch itself, result for result.
 */
describe('Bm25Retriever', () => {
  const corpus = loadCorpus('corpus')
  const chunks = chunkCorpus(corpus, { chunkTokens: 160, chunkOverlap: 32 })
  const retriever = new Bm25Retriever(chunks)
  const reference = new MiniSearch<{ id: number; text: string }>({ fields: ['text'], tokenize: tokenizeWords, processTerm: termOf })
  reference.addAll(chunks.map((chunk, id) => ({ id, text: chunk.text })))
  const referenceSearch = (query: string, depth: number) =>
    reference
      .search(query, { tokenize: tokenizeWords, processTerm: termOf })
      .map((r) => ({ chunkId: chunks[r.id as number]!.chunkId, ordinal: chunks[r.id as number]!.ordinal, score: r.score }))
      .sort((a, b) => b.score - a.score || a.ordinal - b.ordinal)
      .slice(0, depth)
      .map(({ chunkId, score }) => ({ chunkId, score }))

  const queries = [
    ...loadGoldenSet('evals/golden-set.json', corpus).map((q) => q.question),
    'sampling sampling rate rate',
    'the of and',
    '',
    'a term no chunk has: zyxwvut',
  ]

  it('ranks every golden question and edge-case query exactly as MiniSearch does (chunks and scores)', () => {
    for (const query of queries) {
      const ours = retriever.search(query, 50).map(({ chunk, score }) => ({ chunkId: chunk.chunkId, score }))
      expect(ours, query).toEqual(referenceSearch(query, 50))
    }
  })

  it('keeps the best `depth` results only, and none for a query without index terms', () => {
    expect(retriever.search('trace sampling rate override', 3)).toHaveLength(3)
    expect(retriever.search('the of and', 50)).toEqual([])
  })
})
