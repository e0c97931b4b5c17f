import { describe, expect, it } from 'vitest'
import { InputError } from '../contract/input-error.ts'
import { RetrieverOptionsSchema } from '../contract/retriever-options.ts'
import type { CorpusDocument } from '../load/corpus.ts'
import type { RetrievedChunk } from '../system/rag-system.ts'
import { createBuiltinSystem } from './builtin-system.ts'
import { minPairDistance, proximityRerank, proximityScore } from './proximity-reranker.ts'

const terms = (...list: (string | null)[]) => list

describe('MinDist, the fewest words between two different query terms', () => {
  const query = new Set(['refund', 'dai'])

  it('counts word positions, stopwords included, between the closest pair of different terms', () => {
    // "Refund requests take days": refund at 0, dai at 3.
    expect(minPairDistance(query, terms('refund', 'request', 'take', 'dai'))).toBe(3)
    // "Days to refund": "to" is a stopword (null) yet a position: dai at 0, refund at 2.
    expect(minPairDistance(query, terms('dai', null, 'refund'))).toBe(2)
    // refund 0, refund 1, dai 4, refund 5: the pairs (1, 4) and (4, 5); the repeated refund at 0-1 is no pair.
    expect(minPairDistance(query, terms('refund', 'refund', 'x', 'x', 'dai', 'refund'))).toBe(1)
  })

  it('is null for a text holding fewer than two different query terms', () => {
    expect(minPairDistance(query, terms('refund', 'refund', 'polici'))).toBeNull()
    expect(minPairDistance(query, [])).toBeNull()
  })

  it('scores ln(0.3 + e^-d): about -0.404 adjacent, -1.050 three apart, ln 0.3 = -1.204 without a pair', () => {
    expect(proximityScore(1)).toBeCloseTo(Math.log(0.3 + 0.367879), 5)
    expect(proximityScore(1)).toBeCloseTo(-0.40365, 4)
    expect(proximityScore(3)).toBeCloseTo(-1.05043, 4)
    expect(proximityScore(null)).toBeCloseTo(-1.20397, 4)
  })
})

const chunk = (chunkId: string, score: number, text: string): RetrievedChunk => ({
  chunkId,
  docId: chunkId.split('#')[0]!,
  score,
  tokens: 5,
  text,
})

describe('the proximity reranker', () => {
  it('adds 0.1 x proximity to the first-stage score scaled to the top one', () => {
    const ranked = proximityRerank(
      'refund days',
      [
        // 10/10 + 0.1 ln 0.3 = 0.8796: "days" is missing, no pair
        chunk('a#0', 10, 'Refund policy for every plan is here.'),
        // a(stop) refund take 14 dai: refund 1, dai 4, d = 3: 9.5/10 + 0.1 x -1.0504 = 0.8450, below a
        chunk('b#0', 9.5, 'A refund takes 14 days.'),
        // refund 0, dai 1: 9.5/10 + 0.1 x -0.4037 = 0.9096, above a
        chunk('c#0', 9.5, 'Refund days are 14.'),
        // adjacent too, 5/10 - 0.0404 = 0.4596: too far below to pass anyone
        chunk('d#0', 5, 'Refund days.'),
      ],
      { possessives: true },
    )
    expect(ranked.map((c) => c.chunkId)).toEqual(['c#0', 'a#0', 'b#0', 'd#0'])
  })

  it('keeps the first-stage order between equal scores, and returns the chunks unchanged', () => {
    const input = [chunk('a#0', 2, 'no terms here'), chunk('b#0', 2, 'none here either')]
    const ranked = proximityRerank('refund days', input, { possessives: true })
    expect(ranked).toEqual(input)
  })
})

const corpus: CorpusDocument[] = [
  {
    id: 'doc-a',
    title: 'Refund policy',
    body: '# Refund policy\n\nA refund is reviewed by billing; the request is logged. The money is back on the card after a few days.',
  },
  {
    id: 'doc-b',
    title: 'Billing',
    body: '# Billing\n\nThe money comes back two weeks after the request: refund days are counted from it.',
  },
  { id: 'doc-c', title: 'Plans', body: '# Plans\n\nThe annual plan and the monthly plan, with a refund for either.' },
] as CorpusDocument[]
const knobs = { chunkTokens: 160, chunkOverlap: 32, rankDepth: 20, budgetTokens: 600, refusalThreshold: 0.5, answerSentences: 3 }
const question = { id: 'q-1', question: 'How many days until a refund?', userContext: null }

describe('the built-in system with a reranker', () => {
  it('reports retrieve then rerank, ranks and packs from the reranked list, keeps the tail after the top N', async () => {
    const plain = await createBuiltinSystem(corpus, { ...knobs, generate: false }).answer(question)
    const retrieval = RetrieverOptionsSchema.parse({ reranker: 'proximity', rerankTopN: 2 })
    const staged = await createBuiltinSystem(corpus, { ...knobs, generate: false, retrieval }).answer(question)
    expect(plain.stages).toBeUndefined()
    expect(plain.ranked.map((c) => c.docId)).toEqual(['doc-a', 'doc-b', 'doc-c'])
    // doc-a: refund and days 19 words apart, 1 + 0.1 ln(0.3 + e^-19) = 0.8796; doc-b: "refund days" adjacent,
    // s_b / s_a - 0.0404, which passes doc-a when s_b / s_a > 0.9200.
    const ratio = plain.ranked[1]!.score / plain.ranked[0]!.score
    expect(ratio).toBeGreaterThan(0.92)
    expect(ratio).toBeLessThan(1)
    const [retrieve, rerank] = staged.stages!
    expect(retrieve).toMatchObject({ name: 'retrieve', ranked: plain.ranked })
    expect(rerank!.name).toBe('rerank')
    expect(rerank!.ranked).toBe(staged.ranked)
    // The top 2 swap; doc-c, past N, keeps its place.
    expect(staged.ranked.map((c) => c.docId)).toEqual(['doc-b', 'doc-a', 'doc-c'])
    expect(staged.ranked.map((c) => c.score)).toEqual([3, 2, 1])
    expect(staged.context.map((c) => c.docId)).toEqual(['doc-b', 'doc-a', 'doc-c'])
    expect(staged.stages!.every((stage) => typeof stage.latencyMs === 'number')).toBe(true)
  })

  it("names the model modes when 'claude' is configured without the model client", () => {
    const retrieval = RetrieverOptionsSchema.parse({ reranker: 'claude' })
    expect(() => createBuiltinSystem(corpus, { ...knobs, generate: false, retrieval })).toThrow(
      new InputError(
        "retrieval.reranker 'claude' ranks through the model client: run a full evaluation with EVAL_MODE=live, record or replay; offline, in the retrieval tier and for the golden commands, set EVAL_RERANKER=proximity or none",
      ),
    )
  })
})
