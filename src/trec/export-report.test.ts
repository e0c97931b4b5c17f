import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadProjectConfig } from '../config/load-project-config.ts'
import { evaluate } from '../run/evaluate.ts'

const project = await loadProjectConfig()
import { scoreRetrieval } from '../scoring/score-retrieval.ts'
import { exportReportToTrec } from './export-report.ts'
import { evaluateFiles } from './trec-eval.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'

/** Temp folders of this file's tests, removed after each test. */
const tempDirs = useTempDirs()

describe('exportReportToTrec', () => {
  it('writes files on which trec_eval ndcg_cut.10 equals the report docNdcg10, question by question', async () => {
    const report = await evaluate(project, { tier: 'retrieval', env: {} })
    const { qrels, run } = exportReportToTrec(report)
    const dir = tempDirs.make('trec-export-')
    writeFileSync(join(dir, 'qrels'), qrels)
    writeFileSync(join(dir, 'run'), run)
    const trec = await evaluateFiles(join(dir, 'qrels'), join(dir, 'run'), { measures: ['ndcg_cut.10'] })
    const answerable = report.questions.filter((q) => q.type !== 'none')
    const perQuery = new Map(trec.perQuery.map((row) => [row.qid, row.value]))
    expect([...perQuery.keys()].sort()).toEqual(answerable.map((q) => q.id).sort())
    for (const question of answerable) expect(perQuery.get(question.id)).toBeCloseTo(question.docNdcg10!, 4)
    expect(trec.summary.find((row) => row.measure === 'ndcg_cut_10')!.value).toBeCloseTo(report.summary.docNdcg10!, 4)
  })

  it('keeps each document once at its best chunk, with strictly decreasing scores', () => {
    const report = {
      config: { system: 'sys' },
      questions: [
        { id: 'q1', type: 'single', answerDocIds: ['d2'], rankedDocIds: ['d1', 'd2', 'd1', 'd3'] },
        { id: 'q2', type: 'none', answerDocIds: [], rankedDocIds: ['d1'] },
      ],
    } as unknown as Parameters<typeof exportReportToTrec>[0]
    expect(exportReportToTrec(report)).toEqual({
      qrels: 'q1 0 d2 1\n',
      run: 'q1 Q0 d1 1 3 sys\nq1 Q0 d2 2 2 sys\nq1 Q0 d3 3 1 sys\n',
    })
  })

  it("writes a graded question's grades, 0 included, on which trec_eval's ndcg_cut.10 is the outcome's docNdcg10", async () => {
    const question = {
      id: 'q1',
      type: 'multi' as const,
      question: 'q?',
      answerDocIds: ['a', 'b', 'c'],
      relevance: { a: 3, b: 1, c: 2, d: 0 },
      goldAnswer: 'g.',
    }
    const chunk = (docId: string) => ({ chunkId: `${docId}#1`, docId, score: 1, tokens: 1, text: docId })
    const outcome = scoreRetrieval(question, { ranked: ['d', 'b', 'c', 'a'].map(chunk), context: [] }, undefined, { k: 10 })
    const report = { config: { system: 'sys' }, questions: [outcome] } as unknown as Parameters<typeof exportReportToTrec>[0]
    const { qrels, run } = exportReportToTrec(report)
    expect(qrels).toBe('q1 0 a 3\nq1 0 b 1\nq1 0 c 2\nq1 0 d 0\n')
    const dir = tempDirs.make('trec-export-')
    writeFileSync(join(dir, 'qrels'), qrels)
    writeFileSync(join(dir, 'run'), run)
    const trec = await evaluateFiles(join(dir, 'qrels'), join(dir, 'run'), { measures: ['ndcg_cut.10'] })
    // By hand: DCG = 1/log2(3) + 2/log2(4) + 3/log2(5); ideal 3, 2, 1 = 3 + 2/log2(3) + 1/log2(4)
    const byHand = (1 / Math.log2(3) + 1 + 3 / Math.log2(5)) / (3 + 2 / Math.log2(3) + 0.5)
    expect(trec.perQuery[0]!.value).toBeCloseTo(byHand, 10)
    expect(outcome.docNdcg10).toBe(Math.round(byHand * 1e4) / 1e4)
  })
})
