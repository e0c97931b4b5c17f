import { describe, expect, it } from 'vitest'
import { resolveEvalConfig } from '../config/eval-config.ts'
import { loadCorpus } from '../load/corpus.ts'
import { loadGoldenSet } from '../load/golden-set.ts'
import { Bm25Retriever } from './bm25-retriever.ts'
import { chunkCorpus } from './chunker.ts'
import { RankingAhead } from './ranking-ahead.ts'

describe('ranking ahead on a helper thread', () => {
  const config = resolveEvalConfig({}, {}, 'test config')
  const corpus = loadCorpus('corpus')
  const retriever = new Bm25Retriever(chunkCorpus(corpus, config), config.retrieval)
  const golden = loadGoldenSet('evals/golden-set.json', corpus)
  // The golden questions eight times over (ids made unique), so the helper has a queue to work through.
  const questions = Array.from({ length: 8 }, (_, round) => golden.map((q) => ({ id: `${q.id}/${round}`, question: q.question }))).flat()

  it('gives every question the ranking the retriever gives, whichever thread made it', async () => {
    const ahead = new RankingAhead(retriever.ranker, questions, config.rankDepth)
    try {
      // Give the helper time to start and take some queries, then ask for all of them in order.
      await new Promise((resolve) => setTimeout(resolve, 300))
      for (const question of questions) {
        const ranking = ahead.ranking(question)!
        const expected = retriever.ranker.rank(question.question, config.rankDepth)
        expect(ranking.ids, question.id).toEqual(expected.ids)
        expect(ranking.scores, question.id).toEqual(expected.scores)
        expect(ranking.ms).toBeGreaterThanOrEqual(0)
      }
    } finally {
      ahead.stop()
    }
  })

  it('has no ranking for a question it was not given, or given with other words', () => {
    const ahead = new RankingAhead(retriever.ranker, questions.slice(0, 3), config.rankDepth)
    try {
      expect(ahead.ranking({ id: 'not-in-the-run', question: questions[0]!.question })).toBeNull()
      expect(ahead.ranking({ id: questions[1]!.id, question: 'another question' })).toBeNull()
    } finally {
      ahead.stop()
    }
  })
})
