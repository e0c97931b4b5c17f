import type { EvalConfig } from '../config/eval-config.ts'
import type { CorpusDocument } from '../load/corpus.ts'
import { Bm25Retriever } from './bm25-retriever.ts'
import { chunkCorpus, type Chunk } from './chunker.ts'
import { packContext } from './context-packer.ts'
import type { RagSystem, RetrievedChunk, SystemAnswer } from './rag-system.ts'

export interface BuiltinSystem extends RagSystem {
  readonly chunks: readonly Chunk[]
}

type BuiltinOptions = Pick<EvalConfig, 'chunkTokens' | 'chunkOverlap' | 'rankDepth' | 'budgetTokens'>

/** The built-in baseline system: heading-aware chunks, BM25 ranking, the context packer. Retrieval only for now. */
export function createBuiltinSystem(corpus: readonly CorpusDocument[], options: BuiltinOptions): BuiltinSystem {
  const chunks = chunkCorpus(corpus, options)
  const retriever = new Bm25Retriever(chunks)
  const chunkCountByDoc = new Map<string, number>()
  for (const chunk of chunks) chunkCountByDoc.set(chunk.docId, (chunkCountByDoc.get(chunk.docId) ?? 0) + 1)
  return {
    name: 'builtin-bm25',
    chunks,
    chunkCountByDoc,
    async answer(question): Promise<SystemAnswer> {
      const started = performance.now()
      const ranked: RetrievedChunk[] = retriever.search(question.question, options.rankDepth).map(({ chunk, score }) => ({
        chunkId: chunk.chunkId,
        docId: chunk.docId,
        score,
        tokens: chunk.tokens,
        text: chunk.text,
      }))
      const context = packContext(ranked, options.budgetTokens)
      return { ranked, context, timingsMs: { retrieve: performance.now() - started } }
    },
  }
}
