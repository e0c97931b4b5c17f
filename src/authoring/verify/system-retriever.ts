import type { RagSystem } from '../../system/rag-system.ts'
import { closeSystem } from '../../system/close-system.ts'
import type { Retriever } from './verify-candidates.ts'

/** A system's top-k passages for a question, as `golden verify` checks a none question against them. */
export function systemRetriever(name: string, system: RagSystem, k: number): Retriever {
  return {
    name,
    async retrieve(question) {
      const { ranked } = await system.answer({
        id: question.id,
        question: question.question,
        userContext: question.userContext ?? null,
      })
      return ranked.slice(0, k).map((chunk) => ({ id: chunk.chunkId, text: chunk.text }))
    },
  }
}

/** Closes the configured system after verifying; the failure, if any, as a message. */
export async function closeRetrieverSystem(system: RagSystem): Promise<string | null> {
  return closeSystem(system)
}
