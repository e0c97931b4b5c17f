import { describe, expect, it } from 'vitest'
import { ndcgCut } from './measures/ndcg-cut'
import { precisionAt } from './measures/precision'
import { recallAt } from './measures/recall'
import { reciprocalRank } from './measures/recip-rank'

// Ranked relevance of the edge query q1 after tie-breaking: d9 (unjudged), d2 (0), d3 (2), d1 (1).
const Q1 = [-1, 0, 2, 1]

describe('recip_rank', () => {
  it('is 1/rank of the first rel >= 1 document', () => {
    expect(reciprocalRank(Q1)).toBeCloseTo(0.3333333333, 10)
    expect(reciprocalRank([1, 0])).toBe(1)
  })
  it('is 0 when nothing relevant is retrieved (unjudged and rel 0 are not relevant)', () => {
    expect(reciprocalRank([-1, 0, 0])).toBe(0)
    expect(reciprocalRank([])).toBe(0)
  })
})

describe('recall_k', () => {
  it('divides relevant-in-top-k by all relevant judgements', () => {
    expect(recallAt(Q1, 2, 1)).toBe(0)
    expect(recallAt(Q1, 2, 3)).toBe(0.5)
    expect(recallAt(Q1, 2, 10)).toBe(1)
    expect(recallAt([1], 4, 10)).toBe(0.25)
  })
  it('is 0 when the query has no relevant judgement', () => {
    expect(recallAt([0, -1], 0, 10)).toBe(0)
  })
})

describe('P_k', () => {
  it('divides by k even when fewer documents are retrieved', () => {
    expect(precisionAt(Q1, 3)).toBeCloseTo(0.3333333333, 10)
    expect(precisionAt(Q1, 5)).toBe(0.4)
    expect(precisionAt(Q1, 2)).toBe(0)
  })
})

describe('ndcg_cut_k', () => {
  it('uses linear graded gains and an IDCG from the qrels alone (values hand-computed)', () => {
    // DCG@3 = 2/log2(4) = 1; IDCG@3 = 2 + 1/log2(3) = 2.6309297536
    expect(ndcgCut(Q1, [1, 2], 3)).toBeCloseTo(0.3800937667, 10)
    // DCG@10 = 1 + 1/log2(5) = 1.4306765581
    expect(ndcgCut(Q1, [1, 2], 10)).toBeCloseTo(0.5437912419, 10)
    expect(ndcgCut(Q1, [1, 2], 1)).toBe(0)
  })
  it('sorts the ideal gains itself and cuts them at k', () => {
    // DCG@2 = 3; IDCG@2 = 3 + 2/log2(3) = 4.2618595071
    expect(ndcgCut([3, 0, 1], [1, 3, 2], 2)).toBeCloseTo(0.703918089, 9)
    // DCG@3 = 3 + 1/2 = 3.5; IDCG@3 = 4.2618595071 + 1/2 = 4.7618595071
    expect(ndcgCut([3, 0, 1], [1, 3, 2], 3)).toBeCloseTo(0.7350069851, 9)
  })
  it('is 0 when the query has no relevant judgement', () => {
    expect(ndcgCut([-1, 0], [], 10)).toBe(0)
  })
})
