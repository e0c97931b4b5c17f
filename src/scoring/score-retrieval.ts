import type { GoldenQuestion } from '../contract/golden-set-schema.ts'
import type { QuestionOutcome } from '../contract/report-schema.ts'
import type { SystemAnswer } from '../system/rag-system.ts'
import { round4 } from '../statistics/descriptive.ts'
import { NOT_JUDGED } from '../contract/question-outcome-schema.ts'
import { contextHit } from './retrieval/context-hit.ts'
import { idBasedContextPrecision } from './retrieval/id-based-context-precision.ts'
import { idBasedContextRecall } from './retrieval/id-based-context-recall.ts'
import { gradesOf, relevantDocIds } from './retrieval/graded-relevance.ts'
import { gradedDocNdcgAt10, gradedNdcgAt10 } from './retrieval/ndcg-at-10.ts'
import { recallAtK } from './retrieval/recall-at-k.ts'
import { reciprocalRank } from './retrieval/reciprocal-rank.ts'
import { lossFunnel, numberStages } from './loss-funnel.ts'

const EVIDENCE_DEPTH = 10

const topOf = (ranked: SystemAnswer['ranked']) =>
  ranked.slice(0, EVIDENCE_DEPTH).map(({ chunkId, docId, score }) => ({ chunkId, docId, score: round4(score) }))

const roundOrNull = (value: number | null) => (value === null ? null : round4(value))

/** The knobs retrieval scoring reads: recall@k's cut, and the grade from which a document counts as relevant (default 1). */
export interface RetrievalScoring {
  k: number
  relevantGrade?: number | undefined
}

/**
 * One question's retrieval outcome (pure). Ranking metrics are null for none questions; generation fields stay
 * null until the generation tier. nDCG gains the grades; hits, MRR and recall@k count answer docs graded
 * `relevantGrade` or more.
 */
export function scoreRetrieval(
  question: GoldenQuestion,
  output: SystemAnswer,
  chunkCountByDoc: ReadonlyMap<string, number> | undefined,
  { k, relevantGrade = 1 }: RetrievalScoring,
): QuestionOutcome {
  const rankedDocIds = output.ranked.map((chunk) => chunk.docId)
  const contextDocIds = output.context.map((chunk) => chunk.docId)
  const answerable = question.type !== 'none'
  const grades = gradesOf(question)
  const relevant = relevantDocIds(question, relevantGrade)
  const relevantChunkCount = chunkCountByDoc
    ? question.answerDocIds.reduce((sum, id) => sum + (chunkCountByDoc.get(id) ?? 0), 0)
    : null
  return {
    id: question.id,
    type: question.type,
    question: question.question,
    userContext: question.userContext ?? null,
    // Only a follow-up question carries its history: a standalone one's outcome is as it was before histories.
    ...(question.history !== undefined ? { history: question.history } : {}),
    // Only a drafted (or imported) question carries its provenance: a hand-written one's outcome is as it was.
    ...(question.provenance !== undefined ? { provenance: question.provenance } : {}),
    systemError: null,
    answerDocIds: question.answerDocIds,
    // Only a graded question carries its grades: an ungraded one's outcome is as it was before grades.
    ...(question.relevance !== undefined ? { relevance: question.relevance } : {}),
    governingDocId: question.governingDocId ?? null,
    goldAnswer: question.goldAnswer ?? null,
    rankedDocIds,
    contextDocIds,
    contextTokens: output.context.reduce((sum, chunk) => sum + chunk.tokens, 0),
    relevantChunkCount,
    hit: contextHit({ type: question.type, answerDocIds: relevant, governingDocId: question.governingDocId, contextDocIds }),
    reciprocalRank: answerable ? round4(reciprocalRank(rankedDocIds, relevant)) : null,
    ndcg10: answerable && chunkCountByDoc ? round4(gradedNdcgAt10(rankedDocIds, grades, chunkCountByDoc)) : null,
    docNdcg10: answerable ? round4(gradedDocNdcgAt10(rankedDocIds, grades)) : null,
    recallAtK: answerable ? round4(recallAtK(rankedDocIds, relevant, k)) : null,
    // RAGAS's id-based metrics keep every answer doc: `export --format ragas` hands RAGAS answerDocIds (it has no grades).
    idBasedContextRecall: roundOrNull(idBasedContextRecall(contextDocIds, question.answerDocIds)),
    idBasedContextPrecision: roundOrNull(idBasedContextPrecision(contextDocIds, question.answerDocIds)),
    topRanked: topOf(output.ranked),
    context: output.context.map(({ chunkId, docId, tokens, text }) => ({ chunkId, docId, tokens, text })),
    answer: output.answer ?? null,
    ...NOT_JUDGED,
    stages: stageOutcomes(question, relevant, output.stages ?? []),
    funnel: answerable ? lossFunnel(relevant, { ...output, stages: output.stages ?? [] }, null) : null,
    ...(output.prompt === undefined ? {} : { prompt: output.prompt }),
  }
}

/** Each reported stage's hit and reciprocal rank by the final ranking's rules (null for a none question), its repeats numbered. */
function stageOutcomes(question: GoldenQuestion, relevant: string[], stages: NonNullable<SystemAnswer['stages']>) {
  const names = numberStages(stages.map((stage) => stage.name))
  return stages.map((stage, index) => {
    const docIds = stage.ranked.map((chunk) => chunk.docId)
    const answerable = question.type !== 'none'
    return {
      name: names[index]!,
      ...(stage.query === undefined ? {} : { query: stage.query }),
      ranked: stage.ranked.length,
      hit: answerable
        ? contextHit({
            type: question.type,
            answerDocIds: relevant,
            governingDocId: question.governingDocId,
            contextDocIds: docIds,
          })
        : null,
      reciprocalRank: answerable ? round4(reciprocalRank(docIds, relevant)) : null,
      topRanked: topOf(stage.ranked),
    }
  })
}
