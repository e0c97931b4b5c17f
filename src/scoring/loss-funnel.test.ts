import { describe, expect, it } from 'vitest'
import { lossFunnel, numberStages } from './loss-funnel.ts'

const c = (docId: string, n = 0) => ({ chunkId: `${docId}#${n}`, docId })

describe('the loss funnel', () => {
  // retrieve holds a, b, c, d; rerank keeps a, b, c (drops d); the budget fits a and b; the answer draws on a alone.
  const run = {
    stages: [
      { name: 'retrieve', ranked: [c('d'), c('a'), c('b'), c('c')] },
      { name: 'rerank', ranked: [c('a'), c('b'), c('c')] },
    ],
    ranked: [c('a'), c('b'), c('c')],
    context: [c('a'), c('b')],
  }
  it('names the first loss of each answer doc, walking back from the answer', () => {
    const claims = [{ chunkId: 'a#0', verdict: 'supported' }]
    expect(lossFunnel(['a', 'b', 'c', 'd', 'e'], run, claims)).toEqual([
      { docId: 'a', lost: 'survived', rank: 1 },
      { docId: 'b', lost: 'unused', rank: 2 },
      { docId: 'c', lost: 'budget', rank: 3 },
      { docId: 'd', lost: 'stage', stage: 'rerank', rank: 1 },
      { docId: 'e', lost: 'never-retrieved' },
    ])
  })
  it('a claim drawn from a doc and judged unsupported misstates it; undecidable claims (no chunk) use nothing', () => {
    const claims = [
      { chunkId: 'a#0', verdict: 'supported' },
      { chunkId: 'a#0', verdict: 'unsupported' },
      { chunkId: null, verdict: 'undecidable' },
    ]
    expect(lossFunnel(['a', 'b'], run, claims).map((e) => e.lost)).toEqual(['misstated', 'unused'])
    // No judged answer: the funnel ends at the context.
    expect(lossFunnel(['a'], run, null)).toEqual([{ docId: 'a', lost: 'in-context', rank: 1 }])
  })
  it('without stages the final ranking is the only step; an empty stage cuts everything before it', () => {
    const plain = { stages: [], ranked: [c('a')], context: [] }
    expect(lossFunnel(['a', 'b'], plain, null)).toEqual([
      { docId: 'a', lost: 'budget', rank: 1 },
      { docId: 'b', lost: 'never-retrieved' },
    ])
    const emptied = {
      stages: [
        { name: 'retrieve', ranked: [c('a')] },
        { name: 'filter', ranked: [] },
      ],
      ranked: [],
      context: [],
    }
    expect(lossFunnel(['a'], emptied, null)).toEqual([{ docId: 'a', lost: 'stage', stage: 'filter', rank: 1 }])
  })
  it('a repeated stage is numbered; a doc found again by a later stage is judged by its last loss', () => {
    expect(numberStages(['retrieve', 'retrieve', 'rerank', 'retrieve'])).toEqual([
      'retrieve',
      'retrieve#2',
      'rerank',
      'retrieve#3',
    ])
    const agentic = {
      stages: [
        { name: 'retrieve', ranked: [c('a', 1)] },
        { name: 'retrieve', ranked: [] },
        { name: 'retrieve', ranked: [c('a', 2), c('a', 1)] },
        { name: 'rerank', ranked: [c('b')] },
      ],
      ranked: [c('b')],
      context: [c('b')],
    }
    expect(lossFunnel(['a'], agentic, [])).toEqual([{ docId: 'a', lost: 'stage', stage: 'rerank', rank: 1 }])
  })
  it('the final ranking counts as a step when it drops what the last stage held', () => {
    const dropped = { stages: [{ name: 'rerank', ranked: [c('a')] }], ranked: [], context: [] }
    expect(lossFunnel(['a'], dropped, null)).toEqual([{ docId: 'a', lost: 'stage', stage: 'ranked', rank: 1 }])
  })
})
