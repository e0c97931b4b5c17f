import type { EvalConfig } from '../contract/eval-config-schema.ts'
import type { CorpusDocument } from '../load/corpus.ts'
import type { ConversationTurn } from '../model/delimit.ts'
import { chunkCorpus, type Chunk } from './chunker.ts'
import { packContext } from '../system/context-packer.ts'
import { bm25IndexBuilder, type Bm25Index } from './bm25-index.ts'
import { createRetriever } from './create-retriever.ts'
import { extractiveAnswer } from './extractive-answerer.ts'
import type { RagSystem, RetrievedChunk, SystemAnswer } from '../system/rag-system.ts'
import { DEFAULT_RERANK_TOP_N, DEFAULT_RETRIEVER_OPTIONS, type RetrieverOptions } from '../contract/retriever-options.ts'
import { InputError } from '../contract/input-error.ts'
import { proximityRerank } from './proximity-reranker.ts'

export interface BuiltinSystem extends RagSystem {
  readonly chunks: readonly Chunk[]
  /** What it built from the corpus (the `built` option itself when given). */
  readonly built: BuiltCorpus
}

/**
 * Answers a question from the context packed for it: the offline extractive answerer by default, Claude
 * (builtin/claude-answerer.ts) in the model modes. Injected, so the retrieval and packing stay one code path.
 */
export type Answerer = (
  question: { id: string; question: string; history?: readonly ConversationTurn[]; trial?: number },
  context: readonly RetrievedChunk[],
) => Promise<string>

/**
 * Reorders the first stage's top chunks for a question (`query`: what the first stage searched for) and returns them
 * all, best first: the proximity scorer offline, or the one injected (Claude in the model modes).
 */
export type Reranker = (
  question: { id: string; question: string; history?: readonly ConversationTurn[]; trial?: number },
  query: string,
  candidates: readonly RetrievedChunk[],
) => Promise<RetrievedChunk[]>

/**
 * What the built-in system searches for: the user's earlier turns, then the question (a follow-up names too little
 * alone); the assistant's replies are left out, as they would pull the previous answer's documents back in.
 */
export function retrievalQuery(question: { question: string; history?: readonly ConversationTurn[] }): string {
  const asked = (question.history ?? []).filter((turn) => turn.role === 'user').map((turn) => turn.content)
  return [...asked, question.question].join('\n')
}

type BuiltinOptions = Pick<
  EvalConfig,
  'chunkTokens' | 'chunkOverlap' | 'rankDepth' | 'budgetTokens' | 'refusalThreshold' | 'answerSentences'
> & {
  /** Answer the questions (false: retrieval only, the per-commit tier). */
  generate: boolean
  /** Who answers; the offline extractive answerer when absent. */
  answerer?: Answerer | undefined
  /** How chunks are ranked; today's BM25 (DEFAULT_RETRIEVER_OPTIONS) when absent. */
  retrieval?: RetrieverOptions | undefined
  /** The reranker `retrieval.reranker: 'claude'` names (Claude through the run's model client). */
  reranker?: Reranker | undefined
  /** The corpus as a run with the same corpus and options built it (BuiltCorpus); built afresh when absent. */
  built?: BuiltCorpus | null | undefined
}

/** The offline extractive answerer, weighing terms by their idf over chunks, log(1 + N / df) (0 for a term no chunk has). */
function extractiveAnswerer(chunkCount: number, df: ReadonlyMap<string, number>, options: BuiltinOptions): Answerer {
  const idf = (term: string) => {
    const count = df.get(term)
    return count === undefined ? 0 : Math.log(1 + chunkCount / count)
  }
  return async (question, context) =>
    extractiveAnswer(question.question, context, idf, {
      refusalThreshold: options.refusalThreshold,
      maxSentences: options.answerSentences,
    }).answer
}

/** The second stage the retrieval options name, null for none. */
function rerankerOf(retrieval: RetrieverOptions, claude: Reranker | undefined): Reranker | null {
  if (retrieval.reranker === 'proximity')
    return async (_question, query, candidates) => proximityRerank(query, candidates, retrieval)
  if (retrieval.reranker !== 'claude') return null
  if (claude) return claude
  throw new InputError(
    "retrieval.reranker 'claude' ranks through the model client: run a full evaluation with EVAL_MODE=live, record or replay; offline, in the retrieval tier and for the golden commands, set EVAL_RERANKER=proximity or none",
  )
}

/**
 * The first stage's ranking with its top n in the reranker's order and the rest after them unchanged (so recall@k
 * stays comparable); scored by rank counted down, as a reranker's scores do not compare with the first stage's.
 */
function withReranked(first: RetrievedChunk[], top: RetrievedChunk[]): RetrievedChunk[] {
  const ranked = [...top, ...first.slice(top.length)]
  return ranked.map((chunk, i) => ({ ...chunk, score: ranked.length - i }))
}

/** What the built-in system computes from the corpus alone, so a run over an unchanged corpus can reuse it (built-corpus-cache.ts). */
export interface BuiltCorpus {
  chunks: Chunk[]
  bm25: Bm25Index
  answererDf: ReadonlyMap<string, number>
}

/** The corpus chunked and indexed, the answerer's frequencies counted in the same scan. */
function buildCorpus(corpus: readonly CorpusDocument[], options: BuiltinOptions): BuiltCorpus {
  const chunks = chunkCorpus(corpus, options)
  const index = bm25IndexBuilder(options.retrieval ?? DEFAULT_RETRIEVER_OPTIONS)
  for (const chunk of chunks) index.add(chunk.text, chunk.heading)
  const bm25 = index.finish()
  return { chunks, bm25, answererDf: index.contentTermFrequencies() }
}

/**
 * The built-in baseline system: heading-aware chunks, BM25 (or hybrid) ranking, the context packer, and (unless
 * retrieval only) an answerer: the offline extractive one, or the one injected (Claude in the model modes).
 */
export function createBuiltinSystem(corpus: readonly CorpusDocument[], options: BuiltinOptions): BuiltinSystem {
  const built = options.built ?? buildCorpus(corpus, options)
  const { chunks } = built
  const retrieval = options.retrieval ?? DEFAULT_RETRIEVER_OPTIONS
  const retriever = createRetriever(chunks, retrieval, built.bm25)
  const reranker = rerankerOf(retrieval, options.reranker)
  const rerankTopN = retrieval.rerankTopN ?? DEFAULT_RERANK_TOP_N
  const chunkCountByDoc = new Map<string, number>()
  for (const chunk of chunks) chunkCountByDoc.set(chunk.docId, (chunkCountByDoc.get(chunk.docId) ?? 0) + 1)
  const answerer = options.generate ? (options.answerer ?? extractiveAnswerer(chunks.length, built.answererDf, options)) : null
  return {
    name: `builtin-${retrieval.kind}`,
    chunks,
    built,
    chunkCountByDoc,
    async answer(question): Promise<SystemAnswer> {
      const started = performance.now()
      const query = retrievalQuery(question)
      const first: RetrievedChunk[] = retriever.search(query, options.rankDepth).map(({ chunk, score }) => ({
        chunkId: chunk.chunkId,
        docId: chunk.docId,
        score,
        tokens: chunk.tokens,
        text: chunk.text,
      }))
      const searched = performance.now()
      const ranked = reranker ? withReranked(first, await reranker(question, query, first.slice(0, rerankTopN))) : first
      const stages = reranker && [
        { name: 'retrieve', ranked: first, latencyMs: searched - started },
        { name: 'rerank', ranked, latencyMs: performance.now() - searched },
      ]
      const context = packContext(ranked, options.budgetTokens)
      const retrieved = performance.now()
      const staged = stages ? { ranked, context, stages } : { ranked, context }
      if (!answerer) return { ...staged, timingsMs: { retrieve: retrieved - started } }
      const answer = await answerer(question, context)
      return { ...staged, answer, timingsMs: { retrieve: retrieved - started, generate: performance.now() - retrieved } }
    },
  }
}
