import { describe, expect, it } from 'vitest'
import { loadProjectConfig } from '../config/load-project-config.ts'
import type { RagSystem, RetrievedChunk } from '../system/rag-system.ts'
import { evaluate } from './evaluate.ts'

/** The tiny project: g-1 (single: t-001), g-2 (multi: t-001, t-002), g-3 (none). */
const tiny = await loadProjectConfig({ overrides: { corpus: 'fixtures/corpora/tiny', goldenSet: 'fixtures/golden/valid.json' } })

const chunk = (docId: string, text: string): RetrievedChunk => ({ chunkId: `${docId}#0`, docId, score: 1, tokens: 20, text })
const traces = chunk('t-001', 'Traces are kept for 15 days on Team and 30 days on Business.')
const snapshots = chunk('t-002', 'Snapshots of the trace store are taken every 6 hours and kept for 35 days.')
const desks = chunk('t-003', 'Reserve a workspace in the office app up to 4 weeks ahead. Desks are cleaned every evening.')

/**
 * g-1: retrieve finds only desks, a second retrieve (rewritten query) finds traces, the reranker drops it.
 * g-2: both documents survive the reranker; the context holds snapshots alone (the budget cut traces, rank 2).
 */
const staged: RagSystem = {
  name: 'staged',
  async answer({ id }) {
    if (id === 'g-1')
      return {
        stages: [
          { name: 'retrieve', ranked: [desks], latencyMs: 3 },
          { name: 'retrieve', ranked: [traces, desks], query: 'trace retention Business' },
          { name: 'rerank', ranked: [desks] },
        ],
        ranked: [desks],
        context: [desks],
        answer: desks.text,
      }
    if (id === 'g-2')
      return {
        stages: [
          { name: 'retrieve', ranked: [traces, snapshots, desks] },
          { name: 'rerank', ranked: [snapshots, traces] },
        ],
        ranked: [snapshots, traces],
        context: [snapshots],
        answer: snapshots.text,
      }
    return { stages: [{ name: 'retrieve', ranked: [desks] }], ranked: [desks], context: [desks], answer: desks.text }
  },
}

describe('stages and the loss funnel, from an in-process system that reports them', () => {
  it('per-stage recall and MRR, each gold document named where it was lost', async () => {
    const report = await evaluate(tiny, { tier: 'full', env: {}, system: staged, baselineRoot: null })
    const [g1, g2, g3] = report.questions
    expect(g1!.stages.map((s) => [s.name, s.hit, s.reciprocalRank, s.ranked])).toEqual([
      ['retrieve', false, 0, 1],
      ['retrieve#2', true, 1, 2],
      ['rerank', false, 0, 1],
    ])
    expect(g1!.stages[1]).toMatchObject({
      query: 'trace retention Business',
      topRanked: [{ chunkId: 't-001#0' }, { chunkId: 't-003#0' }],
    })
    expect(g1!.funnel).toEqual([{ docId: 't-001', lost: 'stage', stage: 'rerank', rank: 1 }])
    expect(g2!.funnel).toEqual([
      { docId: 't-001', lost: 'budget', rank: 2 },
      { docId: 't-002', lost: 'survived', rank: 1 },
    ])
    expect(g3!.funnel).toBeNull()
    expect(g3!.stages).toMatchObject([{ name: 'retrieve', hit: null, reciprocalRank: null }])
    // recall@retrieve: g-1 miss, g-2 hit; retrieve#2: g-1 alone (g-2 has no such stage); rerank: g-1 miss, g-2 hit.
    expect(report.summary.stages).toEqual({
      retrieve: {
        recall: 0.5,
        recallByType: { single: 0, multi: 1, contradiction: null },
        mrr: 0.5,
        mrrByType: { single: 0, multi: 1, contradiction: null },
      },
      'retrieve#2': {
        recall: 1,
        recallByType: { single: 1, multi: null, contradiction: null },
        mrr: 1,
        mrrByType: { single: 1, multi: null, contradiction: null },
      },
      rerank: {
        recall: 0.5,
        recallByType: { single: 0, multi: 1, contradiction: null },
        mrr: 0.5,
        mrrByType: { single: 0, multi: 1, contradiction: null },
      },
    })
    expect(report.summary.notComputed['stages.retrieve#2.recallByType.multi']).toBe('no multi questions in the golden set')
    expect(report.summary.funnel).toEqual({
      documents: 3,
      'never-retrieved': 0,
      stage: 1,
      budget: 1,
      unused: 0,
      misstated: 0,
      survived: 1,
      'in-context': 0,
      byStage: { rerank: 1 },
    })
  })

  it('a system without stages: no stage entries, the stages not computed with the reason, the funnel from its ranking', async () => {
    const plain: RagSystem = {
      name: 'plain',
      answer: async () => ({ ranked: [snapshots, traces], context: [snapshots] }),
    }
    const report = await evaluate(tiny, { tier: 'retrieval', env: {}, system: plain, baselineRoot: null })
    expect(report.questions.map((q) => q.stages)).toEqual([[], [], []])
    expect(report.summary.stages).toEqual({})
    expect(report.summary.notComputed.stages).toBe('the system reported no stages')
    // The retrieval tier judges no answer: a document in the context ends the funnel there.
    expect(report.questions.map((q) => q.funnel)).toEqual([
      [{ docId: 't-001', lost: 'budget', rank: 2 }],
      [
        { docId: 't-001', lost: 'budget', rank: 2 },
        { docId: 't-002', lost: 'in-context', rank: 1 },
      ],
      null,
    ])
  })
})
