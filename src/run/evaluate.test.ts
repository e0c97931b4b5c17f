import { describe, expect, it } from 'vitest'
import { ReportSchema, type Report } from '../contract/report-schema.ts'
import { serialiseReport } from '../report/write-report.ts'
import { loadProjectConfig } from '../config/load-project-config.ts'
import { evaluate } from './evaluate.ts'

const project = await loadProjectConfig()

const withoutRun = ({ run: _run, ...rest }: Report) => serialiseReport({ ...rest, run: null } as unknown as Report)

describe('evaluate on the repository corpus and golden set', () => {
  it('gives byte-identical reports once `run` is removed, whatever the concurrency', async () => {
    const first = await evaluate(project, { tier: 'full', env: { EVAL_CONCURRENCY: '1' } })
    const second = await evaluate(project, { tier: 'full', env: { EVAL_CONCURRENCY: '8' } })
    expect(withoutRun(second)).toBe(withoutRun(first).replace('"concurrency": 1', '"concurrency": 8'))
  })

  it('writes a report that satisfies the contract schema, with every retrieval summary field filled', async () => {
    const report = ReportSchema.parse(await evaluate(project, { tier: 'retrieval', env: {} }))
    const { summary } = report
    expect(summary.questions).toBe(report.questions.length)
    expect(summary.answerable).toBe(report.questions.filter((q) => q.type !== 'none').length)
    for (const value of [
      summary.recall,
      summary.recallAtK,
      summary.mrr,
      summary.ndcg10,
      summary.recallByType.single,
      summary.recallByType.multi,
    ]) {
      expect(value).toEqual(expect.any(Number))
    }
    // Recall is the share of answerable questions whose context hit, recomputed here from the per-question records.
    const answerable = report.questions.filter((q) => q.type !== 'none')
    expect(summary.recall).toBeCloseTo(answerable.filter((q) => q.hit).length / answerable.length, 4)
    // The contract's config names (DESIGN.md): retriever stays beside the retrieval options that replaced it.
    expect(report.config).toMatchObject({
      mode: 'offline',
      budgetTokens: 600,
      k: 10,
      chunkTokens: 160,
      chunkOverlap: 32,
      retriever: 'bm25',
      system: 'builtin-bm25',
    })
    expect((await evaluate(project, { tier: 'retrieval', env: { EVAL_RETRIEVER: 'hybrid' } })).config.retriever).toBe('hybrid')
  })

  it('a budget that fits no chunk gives empty contexts and a recall of 0, not an error', async () => {
    const report = await evaluate(project, { tier: 'retrieval', env: { EVAL_CONTEXT_BUDGET: '1' } })
    expect(report.questions.every((q) => q.contextDocIds.length === 0 && q.contextTokens === 0)).toBe(true)
    expect(report.summary.recall).toBe(0)
    // Ranking metrics do not depend on the budget.
    expect(report.summary.mrr).toBeGreaterThan(0)
  })
})
