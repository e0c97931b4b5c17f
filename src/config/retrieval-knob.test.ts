import { describe, expect, it } from 'vitest'
import { baselineFromReport } from '../gate/baseline-files.ts'
import { BaselineSummarySchema } from '../gate/baseline-schema.ts'
import { staleness } from '../gate/gate.ts'
import { evaluate } from '../run/evaluate.ts'
import { describeRetrieval, MINISEARCH_RETRIEVER_OPTIONS } from '../contract/retriever-options.ts'
import { RecordedEvalConfigSchema } from '../contract/eval-config-schema.ts'
import { resolveEvalConfig } from './eval-config.ts'
import { loadProjectConfig } from './load-project-config.ts'

describe('the retrieval knob', () => {
  it('defaults to BM25 as Lucene scores it, with possessives dropped and a title field of weight 1', () => {
    expect(resolveEvalConfig({}, {}, 'cfg.json').retrieval).toEqual({
      kind: 'bm25',
      coordination: false,
      k1: 1.2,
      b: 0.75,
      delta: 0,
      possessives: true,
      titleWeight: 1,
      rrfK: 60,
    })
  })

  it("takes the file's options, each overridden by its variable", () => {
    const env = {
      EVAL_RETRIEVER: 'hybrid',
      EVAL_BM25_COORDINATION: '1',
      EVAL_BM25_B: '0.7',
      EVAL_BM25_DELTA: '0.5',
      EVAL_POSSESSIVES: 'false',
      EVAL_RRF_K: '10',
      EVAL_BM25_K1: '0.9',
    }
    expect(resolveEvalConfig({ retrieval: { titleWeight: 2, b: 0.3 } }, env, 'cfg.json').retrieval).toEqual({
      kind: 'hybrid',
      coordination: true,
      k1: 0.9,
      b: 0.7,
      delta: 0.5,
      possessives: false,
      titleWeight: 2,
      rrfK: 10,
    })
    expect(resolveEvalConfig({}, { EVAL_TITLE_WEIGHT: '0' }, 'cfg.json').retrieval.titleWeight).toBe(0)
  })

  it('names the variable or the file field of a bad option', () => {
    expect(() => resolveEvalConfig({}, { EVAL_RETRIEVER: 'dense' }, 'cfg.json')).toThrow(
      'EVAL_RETRIEVER: Invalid option: expected one of "bm25"|"hybrid" (got "dense")',
    )
    expect(() => resolveEvalConfig({}, { EVAL_BM25_B: 'half' }, 'cfg.json')).toThrow(
      'EVAL_BM25_B="half": expected a decimal number such as 0.5',
    )
    expect(() => resolveEvalConfig({}, { EVAL_BM25_B: '2' }, 'cfg.json')).toThrow(
      'EVAL_BM25_B: Too big: expected number to be <=1 (got 2)',
    )
    expect(() => resolveEvalConfig({}, { EVAL_POSSESSIVES: 'yes' }, 'cfg.json')).toThrow(
      'EVAL_POSSESSIVES="yes": expected 1 or 0 (true or false)',
    )
    expect(() => resolveEvalConfig({ retrieval: { b: 2 } }, {}, 'cfg.json')).toThrow(
      'cfg.json field "retrieval.b": Too big: expected number to be <=1 (got 2)',
    )
    expect(() => resolveEvalConfig({ retrieval: { coordinaton: true } }, {}, 'cfg.json')).toThrow(
      'cfg.json field "retrieval": unknown option(s) coordinaton; expected only kind, coordination, k1, b, delta, possessives, titleWeight, rrfK',
    )
  })

  it('takes a reranker and its N from the file or their variables, and records neither when they are absent', () => {
    const env = { EVAL_RERANKER: 'proximity', EVAL_RERANK_TOP_N: '30' }
    expect(resolveEvalConfig({ retrieval: { rerankTopN: 10 } }, env, 'cfg.json').retrieval).toMatchObject({
      reranker: 'proximity',
      rerankTopN: 30,
    })
    expect(Object.keys(resolveEvalConfig({}, {}, 'cfg.json').retrieval)).not.toContain('reranker')
    expect(() => resolveEvalConfig({}, { EVAL_RERANKER: 'cohere' }, 'cfg.json')).toThrow(
      'EVAL_RERANKER: Invalid option: expected one of "none"|"proximity"|"claude" (got "cohere")',
    )
    expect(() => resolveEvalConfig({}, { EVAL_RERANK_TOP_N: '0' }, 'cfg.json')).toThrow(
      'EVAL_RERANK_TOP_N: Too small: expected number to be >0 (got 0)',
    )
    expect(describeRetrieval(resolveEvalConfig({}, env, 'cfg.json').retrieval)).toBe(
      'bm25 (k1 1.2, b 0.75, title 1, possessives, proximity rerank of the top 30)',
    )
  })

  it("reads a report or baseline written before it (`retriever: 'bm25'`) as the MiniSearch scoring it was measured with", () => {
    const legacy = { ...resolveEvalConfig({}, {}, 'cfg.json'), retrieval: undefined, retriever: 'bm25' }
    expect(RecordedEvalConfigSchema.parse(legacy).retrieval).toEqual(MINISEARCH_RETRIEVER_OPTIONS)
    expect(MINISEARCH_RETRIEVER_OPTIONS).toEqual({
      kind: 'bm25',
      coordination: true,
      k1: 1.2,
      b: 0.7,
      delta: 0.5,
      possessives: false,
      titleWeight: 0,
      rrfK: 60,
    })
  })

  it('makes a baseline measured with other retrieval options stale, naming each option that differs', async () => {
    const project = await loadProjectConfig()
    const report = await evaluate(project, { tier: 'retrieval', env: {}, baselineRoot: null })
    const accepted = baselineFromReport(report)
    const { retrieval: _, ...older } = accepted.summary.config
    const legacy = {
      ...accepted,
      summary: BaselineSummarySchema.parse({ ...accepted.summary, config: { ...older, retriever: 'bm25' } }),
    }
    expect(staleness(report, accepted)).toEqual([])
    const reranked = await evaluate(project, { tier: 'retrieval', env: { EVAL_RERANKER: 'proximity' }, baselineRoot: null })
    expect(staleness(reranked, accepted)).toEqual(['retrieval.reranker: baseline not set, this run proximity'])
    expect(staleness(report, legacy)).toEqual([
      'retrieval.coordination: baseline true, this run false',
      'retrieval.b: baseline 0.7, this run 0.75',
      'retrieval.delta: baseline 0.5, this run 0',
      'retrieval.possessives: baseline false, this run true',
      'retrieval.titleWeight: baseline 0, this run 1',
    ])
  })
})
