import { systemQuestionOf, type RagSystem } from '../../system/rag-system.ts'
import type { Retriever } from './verify-candidates.ts'
import type { RetrievedPassage } from '../review/review-card.ts'

/** A system's top k for a question, asked as the evaluation asks it (with its userContext and history). */
export async function topChunks(
  system: RagSystem,
  question: Parameters<typeof systemQuestionOf>[0],
  k: number,
): Promise<RetrievedPassage[]> {
  const { ranked } = await system.answer(systemQuestionOf(question))
  return ranked.slice(0, k).map(({ chunkId, docId, text }) => ({ chunkId, docId, text }))
}

/** A system's top-k passages for a question, as `golden verify` checks a none question against them. */
export function systemRetriever(name: string, system: RagSystem, k: number): Retriever {
  return {
    name,
    retrieve: async (question) =>
      (await topChunks(system, question, k)).map(({ chunkId, docId, text }) => ({ id: chunkId, docId, text })),
  }
}
