import type { EvalConfig } from '../config/eval-config.ts'
import type { CorpusDocument } from '../load/corpus.ts'
import { chunkDocumentFrequencies, inverseDocumentFrequency } from './chunk-document-frequencies.ts'
import { chunkCorpus, type Chunk } from './chunker.ts'
import { packContext } from './context-packer.ts'
import { createRetriever } from './create-retriever.ts'
import { extractiveAnswer } from './extractive-answerer.ts'
import { chunkCorpusOnTwoThreads, worthASecondThread, type CorpusChunks } from './parallel-chunks.ts'
import type { RagSystem, RetrievedChunk, SystemAnswer } from './rag-system.ts'
import { DEFAULT_RETRIEVER_OPTIONS, type RetrieverOptions } from '../config/retriever-options.ts'

export interface BuiltinSystem extends RagSystem {
  readonly chunks: readonly Chunk[]
}

/**
 * Answers a question from the context packed for it: the offline extractive answerer by default, Claude
 * (system/claude-answerer.ts) in the model modes. Injected, so the retrieval and packing stay one code path.
 */
export type Answerer = (question: { id: string; question: string }, context: readonly RetrievedChunk[]) => Promise<string>

type BuiltinOptions = Pick<EvalConfig, 'chunkTokens' | 'chunkOverlap' | 'rankDepth' | 'budgetTokens' | 'refusalThreshold' | 'answerSentences'> & {
  /** Answer the questions (false: retrieval only, the per-commit tier). */
  generate: boolean
  /** Who answers; the offline extractive answerer when absent. */
  answerer?: Answerer | undefined
  /** How chunks are ranked; today's BM25 (DEFAULT_RETRIEVER_OPTIONS) when absent. */
  retrieval?: RetrieverOptions | undefined
}

/** The offline extractive answerer, over the IDF of the corpus's chunks (their document frequencies). */
function extractiveAnswerer(frequencies: ReadonlyMap<string, number>, chunkCount: number, options: BuiltinOptions): Answerer {
  const idf = inverseDocumentFrequency(frequencies, chunkCount)
  return async (question, context) =>
    extractiveAnswer(question.question, context, idf, { refusalThreshold: options.refusalThreshold, maxSentences: options.answerSentences }).answer
}

/** Whether the system answers with the offline extractive answerer, which needs the chunks' document frequencies. */
const answersExtractively = (options: BuiltinOptions) => options.generate && !options.answerer

/**
 * The built-in baseline system: heading-aware chunks, BM25 (or hybrid) ranking, the context packer, and (unless
 * retrieval only) an answerer: the offline extractive one, or the one injected (Claude in the model modes).
 */
export function createBuiltinSystem(corpus: readonly CorpusDocument[], options: BuiltinOptions): BuiltinSystem {
  const chunks = chunkCorpus(corpus, options)
  return builtinSystemOver({ chunks, frequencies: answersExtractively(options) ? chunkDocumentFrequencies(chunks) : null }, options)
}

/**
 * createBuiltinSystem, the same system, with a large corpus (worthASecondThread) chunked, and its
 * document frequencies counted, on two threads (parallel-chunks.ts); a smaller one exactly as createBuiltinSystem.
 */
export async function openBuiltinSystem(corpus: readonly CorpusDocument[], options: BuiltinOptions): Promise<BuiltinSystem> {
  if (!worthASecondThread(corpus)) return createBuiltinSystem(corpus, options)
  return builtinSystemOver(await chunkCorpusOnTwoThreads(corpus, options, answersExtractively(options)), options)
}

/** The system over the corpus's chunks; `frequencies` are counted when it answers extractively. */
function builtinSystemOver({ chunks, frequencies }: CorpusChunks, options: BuiltinOptions): BuiltinSystem {
  const retrieval = options.retrieval ?? DEFAULT_RETRIEVER_OPTIONS
  const retriever = createRetriever(chunks, retrieval)
  const chunkCountByDoc = new Map<string, number>()
  for (const chunk of chunks) chunkCountByDoc.set(chunk.docId, (chunkCountByDoc.get(chunk.docId) ?? 0) + 1)
  const answerer = options.generate ? (options.answerer ?? extractiveAnswerer(frequencies!, chunks.length, options)) : null
  return {
    name: `builtin-${retrieval.kind}`,
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
      const retrieved = performance.now()
      if (!answerer) return { ranked, context, timingsMs: { retrieve: retrieved - started } }
      const answer = await answerer(question, context)
      return { ranked, context, answer, timingsMs: { retrieve: retrieved - started, generate: performance.now() - retrieved } }
    },
  }
}
