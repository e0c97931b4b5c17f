import type { JudgedMetric, Judgement } from './judge.ts'
import type { GenerationDetail, QuestionOutcome } from '../contract/question-outcome-schema.ts'
import { contradictionHandled } from '../scoring/generation/contradiction-handled.ts'
import { blame, diagnose } from '../scoring/generation/diagnosis.ts'
import { stripCitationMarkers } from '../contract/citation-markers.ts'
import { JUDGE_DIMENSIONS } from './dimensions/index.ts'

/**
 * Adds a judgement of the answer to its retrieval outcome (pure): refusal, each judged metric with what its
 * dimension keeps, contradiction handling (docText: the documents' texts), the diagnosis and the blame.
 */
export function scoreGeneration(
  outcome: QuestionOutcome,
  judgement: Judgement,
  docText: (docId: string) => string,
): QuestionOutcome {
  const refused = judgement.refusal === 'refused'
  const answer = outcome.answer === null ? null : stripCitationMarkers(outcome.answer)
  const contradiction =
    outcome.type === 'contradiction' && outcome.governingDocId !== null
      ? contradictionHandled({
          answer,
          refused,
          goldAnswer: outcome.goldAnswer,
          governingText: docText(outcome.governingDocId),
          supersededTexts: outcome.answerDocIds.filter((id) => id !== outcome.governingDocId).map(docText),
        })
      : null
  const recorded = JUDGE_DIMENSIONS.map((dimension) => dimension.recorded(judgement[dimension.metric.name]))
  const details = Object.fromEntries(JUDGE_DIMENSIONS.map((dimension, i) => [dimension.metric.name, recorded[i]!.detail]))
  const scored: QuestionOutcome = {
    ...outcome,
    refused: judgement.refusal === 'unclear' ? null : refused,
    ...recorded.reduce<Partial<QuestionOutcome>>((fields, r) => ({ ...fields, ...r.fields }), {}),
    contradictionHandled: contradiction?.handled ?? null,
    generation: {
      refusal: judgement.refusal,
      ...(details as Pick<GenerationDetail, JudgedMetric>),
      contradiction: contradiction && { governingFacts: contradiction.governingFacts, staleFacts: contradiction.staleFacts },
      judgeErrors: judgement.judgeErrors ?? [],
    },
  }
  return { ...scored, diagnosis: diagnose(scored, refused), blame: blame(scored) }
}
