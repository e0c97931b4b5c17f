import type { EvalConfig } from '../config/eval-config.ts'
import type { CorpusDocument } from '../load/corpus.ts'
import { chunkCorpus, type Chunk } from './chunker.ts'
import { packContext } from './context-packer.ts'
import { createRetriever } from './create-retriever.ts'
import { extractiveAnswer } from './extractive-answerer.ts'
import type { RagSystem, RetrievedChunk, SystemAnswer } from './rag-system.ts'
import { DEFAULT_RETRIEVER_OPTIONS, type RetrieverOptions } from '../config/retriever-options.ts'
import { termOf, tokenizeWords } from './text-analyzer.ts'

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

/** Inverse document frequency over chunks, log(1 + N / df); a term no chunk has weighs as if df were 0.5. */
function chunkIdf(chunks: readonly Chunk[]): (term: string) => number {
  // Each distinct word's term once (null: a stopword), with its count and the last chunk that counted it:
  // one lookup per word of the corpus, no set per chunk.
  const df = new Map<string, { chunks: number; last: number }>()
  const ofWord = new Map<string, { chunks: number; last: number } | null>()
  chunks.forEach((chunk, id) => {
    for (const word of tokenizeWords(chunk.text)) {
      let entry = ofWord.get(word)
      if (entry === undefined) {
        const term = termOf(word)
        entry = term === null ? null : (df.get(term) ?? df.set(term, { chunks: 0, last: -1 }).get(term)!)
        ofWord.set(word, entry)
      }
      if (entry === null || entry.last === id) continue
      entry.last = id
      entry.chunks++
    }
  })
  return (term) => {
    const count = df.get(term)?.chunks
    return count === undefined ? 0 : Math.log(1 + chunks.length / count)
  }
}

/** The offline extractive answerer over the corpus's chunk IDF. */
function extractiveAnswerer(chunks: readonly Chunk[], options: BuiltinOptions): Answerer {
  const idf = chunkIdf(chunks)
  return async (question, context) =>
    extractiveAnswer(question.question, context, idf, { refusalThreshold: options.refusalThreshold, maxSentences: options.answerSentences }).answer
}

/**
 * The built-in baseline system: heading-aware chunks, BM25 (or hybrid) ranking, the context packer, and (unless
 * retrieval only) an answerer: the offline extractive one, or the one injected (Claude in the model modes).
 */
export function createBuiltinSystem(corpus: readonly CorpusDocument[], options: BuiltinOptions): BuiltinSystem {
  const chunks = chunkCorpus(corpus, options)
  const retrieval = options.retrieval ?? DEFAULT_RETRIEVER_OPTIONS
  const retriever = createRetriever(chunks, retrieval)
  const chunkCountByDoc = new Map<string, number>()
  for (const chunk of chunks) chunkCountByDoc.set(chunk.docId, (chunkCountByDoc.get(chunk.docId) ?? 0) + 1)
  const answerer = options.generate ? (options.answerer ?? extractiveAnswerer(chunks, options)) : null
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
