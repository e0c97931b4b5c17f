import type { GoldenQuestion } from '../contract/golden-set-schema.ts'
import type { QuestionOutcome } from '../contract/report-schema.ts'
import type { SystemAnswer } from '../system/rag-system.ts'
import { round4 } from '../statistics/descriptive.ts'
import { contextHit } from './retrieval/context-hit.ts'
import { idBasedContextPrecision } from './retrieval/id-based-context-precision.ts'
import { idBasedContextRecall } from './retrieval/id-based-context-recall.ts'
import { docNdcgAt10, ndcgAt10 } from './retrieval/ndcg-at-10.ts'
import { recallAtK } from './retrieval/recall-at-k.ts'
import { reciprocalRank } from './retrieval/reciprocal-rank.ts'

const EVIDENCE_DEPTH = 10

const roundOrNull = (value: number | null) => (value === null ? null : round4(value))

/**
 * One question's retrieval outcome, a pure function of the question, what the system returned and its
 * chunking. Ranking metrics are null for none questions (there is nothing to rank); generation fields
 * stay null until the generation tier fills them.
 */
export function scoreRetrieval(
  question: GoldenQuestion,
  output: SystemAnswer,
  chunkCountByDoc: ReadonlyMap<string, number> | undefined,
  k: number,
): QuestionOutcome {
  const rankedDocIds = output.ranked.map((chunk) => chunk.docId)
  const contextDocIds = output.context.map((chunk) => chunk.docId)
  const answerable = question.type !== 'none'
  const relevantChunkCount = chunkCountByDoc
    ? question.answerDocIds.reduce((sum, id) => sum + (chunkCountByDoc.get(id) ?? 0), 0)
    : null
  return {
    id: question.id,
    type: question.type,
    question: question.question,
    userContext: question.userContext ?? null,
    systemError: null,
    answerDocIds: question.answerDocIds,
    governingDocId: question.governingDocId ?? null,
    goldAnswer: question.goldAnswer ?? null,
    rankedDocIds,
    contextDocIds,
    contextTokens: output.context.reduce((sum, chunk) => sum + chunk.tokens, 0),
    relevantChunkCount,
    hit: contextHit({ ...question, contextDocIds }),
    reciprocalRank: answerable ? round4(reciprocalRank(rankedDocIds, question.answerDocIds)) : null,
    ndcg10:
      answerable && relevantChunkCount !== null
        ? round4(ndcgAt10(rankedDocIds, question.answerDocIds, relevantChunkCount))
        : null,
    docNdcg10: answerable ? round4(docNdcgAt10(rankedDocIds, question.answerDocIds)) : null,
    recallAtK: answerable ? round4(recallAtK(rankedDocIds, question.answerDocIds, k)) : null,
    idBasedContextRecall: roundOrNull(idBasedContextRecall(contextDocIds, question.answerDocIds)),
    idBasedContextPrecision: roundOrNull(idBasedContextPrecision(contextDocIds, question.answerDocIds)),
    topRanked: output.ranked
      .slice(0, EVIDENCE_DEPTH)
      .map(({ chunkId, docId, score }) => ({ chunkId, docId, score: round4(score) })),
    context: output.context.map(({ chunkId, docId, tokens, text }) => ({ chunkId, docId, tokens, text })),
    answer: output.answer ?? null,
    refused: null,
    faithfulness: null,
    unsupportedClaims: null,
    answerRelevancy: null,
    coverage: null,
    contradictionHandled: null,
    diagnosis: null,
    generation: null,
    judgeRepeats: null,
  }
}
