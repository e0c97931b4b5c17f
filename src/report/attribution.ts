import { questionChecks, questionThresholds } from '../gate/question-checks.ts'
import { baselineQuestion, type BaselineQuestion } from '../gate/baseline-schema.ts'
import type { QuestionOutcome, Report } from '../contract/report-schema.ts'

/** A question's scores as the baseline keeps them (the gated metrics' fields), without its id and type. */
function gatedFields(q: QuestionOutcome): Omit<BaselineQuestion, 'id' | 'type'> {
  const { id: _id, type: _type, ...fields } = baselineQuestion(q)
  return fields
}

/**
 * attribution.jsonl's records: each failing question, in golden-set order, with where its answer came from: when the
 * system reported them, its stages' top chunk ids and the prompt it gave the model.
 */
export function attributionRecords(report: Report) {
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
        blame: q.blame,
        answerDocIds: q.answerDocIds,
        topRankedChunkIds: q.topRanked.map((r) => r.chunkId),
        contextChunkIds: q.context.map((c) => c.chunkId),
        answer: q.answer,
        unsupportedClaims: q.unsupportedClaims,
        metrics: { ...gatedFields(q), contradictionHandled: q.contradictionHandled },
        ...(q.stages.length === 0
          ? {}
          : {
              stages: q.stages.map(({ name, query, topRanked }) => ({
                name,
                ...(query === undefined ? {} : { query }),
                topRankedChunkIds: topRanked.map((r) => r.chunkId),
              })),
            }),
        ...(q.prompt === undefined ? {} : { prompt: q.prompt }),
      },
    ]
  })
}
