import { describe, expect, it } from 'vitest'
import { contextHit } from './context-hit.ts'
import { discountedCumulativeGain, normalisedDcg } from './dcg.ts'
import { docNdcgAt10, ndcgAt10 } from './ndcg-at-10.ts'
import { recallAtK } from './recall-at-k.ts'
import { reciprocalRank } from './reciprocal-rank.ts'

describe('contextHit', () => {
  const context = ['d1', 'd1', 'd3']
  it('single: any answer doc in context', () => {
    expect(contextHit({ type: 'single', answerDocIds: ['d9', 'd3'], contextDocIds: context })).toBe(true)
    expect(contextHit({ type: 'single', answerDocIds: ['d9'], contextDocIds: context })).toBe(false)
  })
  it('multi: every answer doc in context', () => {
    expect(contextHit({ type: 'multi', answerDocIds: ['d1', 'd3'], contextDocIds: context })).toBe(true)
    expect(contextHit({ type: 'multi', answerDocIds: ['d1', 'd2'], contextDocIds: context })).toBe(false)
  })
  it('contradiction: the governing doc, or any answer doc when none is named', () => {
    expect(contextHit({ type: 'contradiction', answerDocIds: ['d1', 'd2'], governingDocId: 'd2', contextDocIds: context })).toBe(
      false,
    )
    expect(contextHit({ type: 'contradiction', answerDocIds: ['d1', 'd2'], governingDocId: 'd1', contextDocIds: context })).toBe(
      true,
    )
    expect(contextHit({ type: 'contradiction', answerDocIds: ['d2', 'd3'], contextDocIds: context })).toBe(true)
  })
  it('none never hits, and an empty context (a budget that fits nothing) hits nothing', () => {
    expect(contextHit({ type: 'none', answerDocIds: [], contextDocIds: context })).toBe(false)
    expect(contextHit({ type: 'single', answerDocIds: ['d1'], contextDocIds: [] })).toBe(false)
    expect(contextHit({ type: 'multi', answerDocIds: ['d1'], contextDocIds: [] })).toBe(false)
  })
})

describe('reciprocalRank', () => {
  it('counts ranks from 1', () => {
    expect(reciprocalRank(['d1', 'd2'], ['d1'])).toBe(1)
    expect(reciprocalRank(['d5', 'd2', 'd7'], ['d7'])).toBeCloseTo(1 / 3, 12)
  })
  it('uses the first chunk of any answer doc', () => {
    expect(reciprocalRank(['d5', 'd2', 'd2', 'd7'], ['d7', 'd2'])).toBe(0.5)
  })
  it('is 0 for no answer doc ranked, an empty ranking, or no answer docs', () => {
    expect(reciprocalRank(['d5', 'd6'], ['d1'])).toBe(0)
    expect(reciprocalRank([], ['d1'])).toBe(0)
    expect(reciprocalRank(['d1'], [])).toBe(0)
  })
})

describe('discountedCumulativeGain', () => {
  it('discounts by log2(rank + 1) and cuts at k', () => {
    // 3/log2(2) + 0 + 1/log2(4) = 3 + 0.5
    expect(discountedCumulativeGain([3, 0, 1, 5], 3)).toBeCloseTo(3.5, 12)
  })
  it('ignores negative gains (unjudged = not relevant)', () => {
    expect(discountedCumulativeGain([-1, 1], 10)).toBeCloseTo(1 / Math.log2(3), 12)
  })
  it('normalises by the ideal order; 0 when nothing is relevant', () => {
    expect(normalisedDcg([0, 1], [1], 10)).toBeCloseTo(1 / Math.log2(3), 12)
    expect(normalisedDcg([0, 0], [], 10)).toBe(0)
  })
})

describe('ndcgAt10 (chunk level)', () => {
  it('gives gain to every chunk of an answer doc; ideal over the relevant chunk count', () => {
    // ranked: d1 d9 d1; doc d1 has 3 chunks in the corpus.
    // DCG = 1 + 1/log2(4) = 1.5; IDCG = 1 + 1/log2(3) + 1/log2(4) = 2.1309297536
    expect(ndcgAt10(['d1', 'd9', 'd1'], ['d1'], 3)).toBeCloseTo(1.5 / 2.1309297535714573, 12)
  })
  it('caps the ideal at 10 relevant chunks', () => {
    const ranked = new Array<string>(10).fill('d1')
    expect(ndcgAt10(ranked, ['d1'], 25)).toBe(1)
  })
  it('counts only the top 10 ranks (rank 11 earns nothing)', () => {
    const ranked = [...new Array<string>(10).fill('x'), 'd1']
    expect(ndcgAt10(ranked, ['d1'], 1)).toBe(0)
    // rank 10: 1/log2(11)
    expect(ndcgAt10(ranked.slice(1), ['d1'], 1)).toBeCloseTo(1 / Math.log2(11), 12)
  })
  it('is 0 for an empty ranking and when no chunk is relevant', () => {
    expect(ndcgAt10([], ['d1'], 2)).toBe(0)
    expect(ndcgAt10(['d1'], ['d1'], 0)).toBe(0)
  })
})

describe('docNdcgAt10 (trec_eval ndcg_cut.10 on doc-level runs)', () => {
  it('counts each document once, at its best chunk', () => {
    // doc ranking: d9 d1 d2 -> DCG = 1/log2(3) + 1/log2(4); IDCG over 2 answer docs = 1 + 1/log2(3)
    const dcg = 1 / Math.log2(3) + 0.5
    expect(docNdcgAt10(['d9', 'd1', 'd9', 'd1', 'd2'], ['d1', 'd2'])).toBeCloseTo(dcg / (1 + 1 / Math.log2(3)), 12)
  })
})

describe('recallAtK', () => {
  it('is the share of answer docs among the docs of the top k chunks', () => {
    expect(recallAtK(['d1', 'd1', 'd2', 'd3'], ['d1', 'd3'], 2)).toBe(0.5)
    expect(recallAtK(['d1', 'd1', 'd2', 'd3'], ['d1', 'd3'], 4)).toBe(1)
  })
  it('is 0 for an empty ranking or no answer docs', () => {
    expect(recallAtK([], ['d1'], 10)).toBe(0)
    expect(recallAtK(['d1'], [], 10)).toBe(0)
  })
})
