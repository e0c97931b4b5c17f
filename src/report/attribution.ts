import { questionChecks, questionThresholds } from '../gate/question-checks.ts'
import { questionMetrics, type QuestionMetrics } from '../contract/question-metrics.ts'
import type { QuestionOutcome, Report } from '../contract/report-schema.ts'

/** One failing question's attribution record: where the answer came from and how it scored. */
export interface AttributionRecord {
  id: string
  type: QuestionOutcome['type']
  question: string
  failedChecks: string[]
  diagnosis: QuestionOutcome['diagnosis']
  answerDocIds: string[]
  topRankedChunkIds: string[]
  contextChunkIds: string[]
  answer: string | null
  unsupportedClaims: string[] | null
  metrics: QuestionMetrics & Pick<QuestionOutcome, 'contradictionHandled'>
}

/** The attribution records of every question that fails a check, in golden-set order. */
export function attributionRecords(report: Report): AttributionRecord[] {
  const thresholds = questionThresholds(report)
  return report.questions.flatMap((q) => {
    const failedChecks = questionChecks(q, thresholds)
      .filter((c) => !c.passed)
      .map((c) => c.name)
    if (failedChecks.length === 0) return []
    return [
      {
        id: q.id,
        type: q.type,
        question: q.question,
        failedChecks,
        diagnosis: q.diagnosis,
        answerDocIds: q.answerDocIds,
        topRankedChunkIds: q.topRanked.map((r) => r.chunkId),
        contextChunkIds: q.context.map((c) => c.chunkId),
        answer: q.answer,
        unsupportedClaims: q.unsupportedClaims,
        metrics: { ...questionMetrics(q), contradictionHandled: q.contradictionHandled },
      },
    ]
  })
}
