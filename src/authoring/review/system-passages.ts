import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { systemQuestionOf, type RagSystem } from '../../system/rag-system.ts'
import type { RetrievedPassage } from './review-card.ts'

/**
 * The configured system's top k for a draft, as the card shows it (the question as the evaluation asks
 * it: with its userContext and history). A failure is shown on the card, never fatal: the reviewer can
 * still decide on the draft.
 */
export async function retrievedPassages(
  system: RagSystem,
  question: GoldenQuestion,
  k: number,
): Promise<{ system: string; passages: RetrievedPassage[] } | { system: string; error: string }> {
  const name = `the configured system (${system.name})`
  try {
    const { ranked } = await system.answer(systemQuestionOf(question))
    return { system: name, passages: ranked.slice(0, k).map(({ chunkId, docId, text }) => ({ chunkId, docId, text })) }
  } catch (error) {
    return { system: name, error: error instanceof Error ? error.message : String(error) }
  }
}
