import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import type { RagSystem } from '../../system/rag-system.ts'
import { topChunks } from '../verify/system-retriever.ts'
import type { RetrievedPassage } from './review-card.ts'

/** The configured system's top k for a draft, as the card shows it; a failure is shown on the card, never fatal. */
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
