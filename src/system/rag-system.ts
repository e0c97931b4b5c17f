import type { EvalConfig } from '../contract/eval-config-schema.ts'
import type { HistoryTurn } from '../contract/golden-set-schema.ts'
import type { CorpusDocument } from '../load/corpus.ts'

/** The system under test, built-in or the user's (in-process or over HTTP): all the evaluation sees. */
export interface RetrievedChunk {
  chunkId: string
  docId: string
  /** Retrieval score, higher is better (only its order matters to the metrics). */
  score: number
  /** Size of the chunk's text in tokens of the configured tokenizer. */
  tokens: number
  text: string
}

/** One step of the pipeline as the system ran it: a retriever's, a query rewrite's or a reranker's ranking. */
export interface SystemStage {
  /** e.g. "retrieve", "rerank"; a name may repeat (an agentic pipeline's three retrieval calls). */
  name: string
  /** The stage's output, best first. */
  ranked: RetrievedChunk[]
  /** The query the stage ran, when it is not the question (a rewritten query). */
  query?: string
  latencyMs?: number
}

/** A span of the answer's text, [start, end) in UTF-16 code units, and the context chunks it cites. */
export interface Citation {
  start: number
  end: number
  chunkIds: string[]
}

export interface SystemAnswer {
  /** Every ranked chunk, best first (at least 20 for the built-in system): the last stage's output. */
  ranked: RetrievedChunk[]
  /** The chunks actually handed to the model, in order; a prefix of `ranked` for the built-in packer. */
  context: RetrievedChunk[]
  /** The pipeline's stages in order, when the system reports them; `ranked` stays the final ranking. */
  stages?: SystemStage[]
  /** The generated answer; absent when the system only retrieves (the retrieval tier). */
  answer?: string
  /** The answer's citations as spans; absent: `[n]` markers in the answer cite the n-th context chunk. */
  citations?: Citation[]
  /** The prompt the model was given, for the attribution log. */
  prompt?: string
  /** Time spent per stage, when the system can tell; the runner measures the whole call regardless. */
  timingsMs?: { retrieve?: number; generate?: number }
}

export interface RagSystem {
  /** Short name for reports, e.g. "builtin-bm25". */
  readonly name: string
  /** Chunks per document, for nDCG@10's ideal ranking; without it nDCG@10 is null, with that reason. */
  readonly chunkCountByDoc?: ReadonlyMap<string, number>
  /** Retrieves, packs a context within the budget and (optionally) answers one question. */
  answer(question: SystemQuestion): Promise<SystemAnswer>
  /** Releases what the system holds (connections, a started service); called once when the run ends. */
  close?(): Promise<void>
}

/** What the system is asked: the golden question's id and text, the user's context verbatim, and the conversation before it. */
export interface SystemQuestion {
  id: string
  question: string
  /** The golden question's `userContext` (tenant, role, permissions...), null when it has none. */
  userContext: Record<string, unknown> | null
  /** A follow-up question's earlier turns, oldest first, as the golden set writes them; absent for a standalone one. */
  history?: readonly HistoryTurn[]
  /** Which trial this is (config `trials` > 1, from 0): a model call's sample index, so each trial is its own cache entry. */
  trial?: number
}

/** The question a system is asked for a golden question: its history passed only when it has one. */
export function systemQuestionOf(question: {
  id: string
  question: string
  userContext?: Record<string, unknown> | undefined
  history?: readonly HistoryTurn[] | undefined
}): SystemQuestion {
  return {
    id: question.id,
    question: question.question,
    userContext: question.userContext ?? null,
    ...(question.history === undefined ? {} : { history: question.history }),
  }
}

/** What a system factory receives: the corpus the suite loaded (null when the system owns its documents) and the run's knobs. */
export interface RagSystemContext {
  corpus: readonly CorpusDocument[] | null
  config: EvalConfig
}

/** Builds the system for a run (e.g. indexes the corpus); may be async. */
export type RagSystemFactory = (context: RagSystemContext) => RagSystem | Promise<RagSystem>

/** Whether a value is a RagSystem: an object with an answer(question) method. */
export function isRagSystem(value: unknown): value is RagSystem {
  return typeof value === 'object' && value !== null && typeof (value as { answer?: unknown }).answer === 'function'
}

/** Typed identity for a system module's default export: a RagSystem, or a factory of one. */
export function defineRagSystem<S extends RagSystem | RagSystemFactory>(system: S): S {
  return system
}
