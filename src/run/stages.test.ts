import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { loadProjectConfig } from '../config/load-project-config.ts'
import { compareReports } from '../compare/compare-reports.ts'
import { baselineFromReport } from '../gate/baseline-from-report.ts'
import { evaluateGate } from '../gate/gate.ts'
import { renderRegressions } from '../report/render-gate.ts'
import { writeReports } from '../report/write-report.ts'
import type { RagSystem, RetrievedChunk } from '../system/rag-system.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { evaluate } from './evaluate.ts'

/** The tiny project: g-1 (single: t-001), g-2 (multi: t-001, t-002), g-3 (none). */
const tiny = await loadProjectConfig({ overrides: { corpus: 'fixtures/corpora/tiny', goldenSet: 'fixtures/golden/valid.json' } })

const temp = useTempDirs()
const chunk = (docId: string, text: string): RetrievedChunk => ({ chunkId: `${docId}#0`, docId, score: 1, tokens: 20, text })
const traces = chunk('t-001', 'Traces are kept for 15 days on Team and 30 days on Business.')
const snapshots = chunk('t-002', 'Snapshots of the trace store are taken every 6 hours and kept for 35 days.')
const desks = chunk('t-003', 'Reserve a workspace in the office app up to 4 weeks ahead. Desks are cleaned every evening.')

/**
 * g-1: retrieve finds only desks, a second retrieve (rewritten query) finds traces, the reranker drops it (unless
 * `keeps`: then it ranks traces first, and the context and the answer are traces).
 * g-2: both documents survive the reranker; the context holds snapshots alone (the budget cut traces, rank 2).
 */
const stagedSystem = (keeps = false): RagSystem => ({
  name: 'staged',
  async answer({ id }) {
    if (id === 'g-1') {
      const reranked = keeps ? [traces, desks] : [desks]
      return {
        stages: [
          { name: 'retrieve', ranked: [desks], latencyMs: 3 },
          { name: 'retrieve', ranked: [traces, desks], query: 'trace retention Business' },
          { name: 'rerank', ranked: reranked, latencyMs: 40 },
        ],
        ranked: reranked,
        context: [reranked[0]!],
        answer: reranked[0]!.text,
        prompt: 'Answer from the material: ...',
      }
    }
    if (id === 'g-2')
      return {
        stages: [
          { name: 'retrieve', ranked: [traces, snapshots, desks], latencyMs: 5 },
          { name: 'rerank', ranked: [snapshots, traces], latencyMs: 20 },
        ],
        ranked: [snapshots, traces],
        context: [snapshots],
        answer: snapshots.text,
      }
    return { stages: [{ name: 'retrieve', ranked: [desks] }], ranked: [desks], context: [desks], answer: desks.text }
  },
})
const staged = stagedSystem()

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
    // The stages' latencies are times: in `run` (nearest rank: p50 of [20, 40] is 20), never in a question's outcome.
    // Their 95% intervals from 2 values: x(1) is below the p95 w.p. 1 - 0.05^2 (>= 0.975), x(2) w.p. 0.9025; nothing bounds
    // the p95 from above, nor the p50 (P(Bin(2, .5) >= 1) = 0.75).
    const open = { low: null, high: null }
    expect(report.run?.stageLatencyMs).toEqual({
      retrieve: { p50: 3, p95: 5, p50Interval: open, p95Interval: { low: 3, high: null } },
      rerank: { p50: 20, p95: 40, p50Interval: open, p95Interval: { low: 20, high: null } },
    })
    expect(JSON.stringify(report.questions)).not.toContain('latencyMs')
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
      byStage: { 'retrieve#2': 0, rerank: 1 },
    })
  })

  it('latest.md, attribution.jsonl and the gate show the stages; a recall regression names the stage it came from', async () => {
    const report = await evaluate(tiny, { tier: 'full', env: {}, system: staged, baselineRoot: null })
    const dir = temp.make('stages-')
    const written = writeReports(report, dir)
    const markdown = readFileSync(written.markdown, 'utf8')
    expect(markdown).toContain(
      '| recall @ rerank     | 0.5000 [0.09, 0.91] | 0.0000 [0.00, 0.79] | 1.0000 [0.21, 1.00] |           n/a |',
    )
    expect(markdown).toContain(
      [
        '| answer documents                     |       3 |',
        '| ------------------------------------ | ------: |',
        '| never retrieved                      |  0 (0%) |',
        '| cut by retrieve#2                    |  0 (0%) |',
        '| cut by rerank                        | 1 (33%) |',
        '| cut by the context budget            | 1 (33%) |',
      ].join('\n'),
    )
    expect(markdown).toContain('- stage retrieve#2 (query: trace retention Business), 2 ranked: 1. t-001#0 · 2. t-003#0')
    const attribution = readFileSync(written.attribution, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as object)
    expect(attribution[0]).toMatchObject({
      id: 'g-1',
      stages: [
        { name: 'retrieve', topRankedChunkIds: ['t-003#0'] },
        { name: 'retrieve#2', query: 'trace retention Business', topRankedChunkIds: ['t-001#0', 't-003#0'] },
        { name: 'rerank', topRankedChunkIds: ['t-003#0'] },
      ],
      prompt: 'Answer from the material: ...',
    })
    // The prompt stays out of latest.json.
    expect(readFileSync(written.json, 'utf8')).not.toContain('Answer from the material')

    // The baseline's reranker kept traces for g-1: recall 0.5 (g-1 hit), recall@rerank 1; now both 0.5 lower.
    const accepted = await evaluate(tiny, { tier: 'full', env: {}, system: stagedSystem(true), baselineRoot: null })
    const baseline = baselineFromReport(accepted)
    expect(baseline.summary.stages).toEqual({
      'recall@retrieve': 0.5,
      'mrr@retrieve': 0.5,
      'recall@retrieve#2': 1,
      'mrr@retrieve#2': 1,
      'recall@rerank': 1,
      'mrr@rerank': 1,
    })
    const gate = evaluateGate(report, baseline, 'baseline', 0.01)
    expect(gate.regressions.find((r) => r.name === 'recall')).toEqual({
      name: 'recall',
      baseline: 0.5,
      current: 0,
      delta: -0.5,
      lostAt: 'lost at rerank (recall@retrieve#2 held at 1)',
    })
    expect(renderRegressions(gate, 'text')).toContain('recall: lost at rerank (recall@retrieve#2 held at 1)')

    // compare pairs the stages both runs report: recall@rerank 1 -> 0.5 (g-1 flipped), retrieve unchanged.
    const source = { kind: 'report', env: {}, report: null } as const
    const compared = compareReports(accepted, report, { a: { ...source, source: 'a' }, b: { ...source, source: 'b' } })
    const byName = new Map(compared.metrics.map((m) => [m.name, m]))
    expect(byName.get('recall@rerank')).toMatchObject({ a: 1, b: 0.5, delta: -0.5, pairs: 2 })
    expect(byName.get('recall@retrieve')).toMatchObject({ a: 0.5, b: 0.5, delta: 0 })
    expect(compared.flips.find((f) => f.metric === 'recall@rerank')?.worse.map((q) => q.id)).toEqual(['g-1'])
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
