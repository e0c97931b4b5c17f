import type { QuestionOutcome } from '../../contract/report-schema.ts'
import type { Measurement } from '../../run/measurement.ts'

/** The error an HTTP service answering 422 leaves on a question (as run-system records it). */
export const HTTP_422 = 'rag-service failed: HTTP 422 Unprocessable Entity: {"detail":"question rejected"}'

/**
 * A question as the evaluation records it when the system failed on it (run-system: nothing ranked, no
 * context, no answer; scoreRetrieval then gives no hit and zero ranks), with the error.
 */
function failed(q: QuestionOutcome, error: string): QuestionOutcome {
  const answerable = q.type !== 'none'
  return {
    ...q,
    systemError: error,
    rankedDocIds: [],
    contextDocIds: [],
    contextTokens: 0,
    hit: false,
    reciprocalRank: answerable ? 0 : null,
    ndcg10: answerable && q.relevantChunkCount !== null ? 0 : null,
    docNdcg10: answerable ? 0 : null,
    recallAtK: answerable ? 0 : null,
    idBasedContextRecall: q.answerDocIds.length > 0 ? 0 : null,
    idBasedContextPrecision: null,
    topRanked: [],
    context: [],
    answer: null,
  }
}

/** The retrieval-tier measurement with the system failing on `ids` (and maxSystemErrorRate `limit`, when given). */
export function failingOn(
  measurement: Measurement,
  ids: readonly string[],
  options: { error?: string; limit?: number } = {},
): Measurement {
  const errored = new Set(ids)
  return {
    ...measurement,
    config: { ...measurement.config, maxSystemErrorRate: options.limit ?? measurement.config.maxSystemErrorRate },
    questions: measurement.questions.map((q) => (errored.has(q.id) ? failed(q, options.error ?? HTTP_422) : q)),
  }
}

/** The measurement with the context of `ids` emptied: each misses (a regression where the baseline hit it). */
export function missingOn(measurement: Measurement, ids: readonly string[]): Measurement {
  const lost = new Set(ids)
  return {
    ...measurement,
    questions: measurement.questions.map((q) =>
      lost.has(q.id) ? { ...q, contextDocIds: [], context: [], contextTokens: 0, hit: false } : q,
    ),
  }
}
