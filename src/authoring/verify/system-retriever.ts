import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
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

/** The configured system's top k for a draft, as the review card shows it; a failure is shown on the card, never fatal. */
export async function retrievedPassages(
  system: RagSystem,
  question: GoldenQuestion,
  k: number,
): Promise<{ system: string; passages: RetrievedPassage[] } | { system: string; error: string }> {
  const name = `the configured system (${system.name})`
  try {
    return { system: name, passages: await topChunks(system, question, k) }
  } catch (error) {
    return { system: name, error: error instanceof Error ? error.message : String(error) }
  }
}
