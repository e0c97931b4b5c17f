/**
 * The system under test. The built-in BM25 system is one implementation; a user's own pipeline
 * (in-process, or a thin client of an HTTP service) is another. The evaluation only sees this.
 */
export interface RetrievedChunk {
  chunkId: string
  docId: string
  /** Retrieval score, higher is better (only its order matters to the metrics). */
  score: number
  /** Size of the chunk's text in tokens of the configured tokenizer. */
  tokens: number
  text: string
}

export interface SystemAnswer {
  /** Every ranked chunk, best first (at least 20 for the built-in system). */
  ranked: RetrievedChunk[]
  /** The chunks actually handed to the model, in order; a prefix of `ranked` for the built-in packer. */
  context: RetrievedChunk[]
  /** The generated answer; absent when the system only retrieves (the retrieval tier). */
  answer?: string
  /** Time spent per stage, when the system can tell; the runner measures the whole call regardless. */
  timingsMs?: { retrieve?: number; generate?: number }
}

export interface RagSystem {
  /** Short name for reports, e.g. "builtin-bm25". */
  readonly name: string
  /**
   * Chunks per document of the system's own chunking: nDCG@10 needs it for the ideal ranking. A system
   * that cannot tell leaves it out and nDCG@10 is reported as null with that reason.
   */
  readonly chunkCountByDoc?: ReadonlyMap<string, number>
  /** Retrieves, packs a context within the budget and (optionally) answers one question. */
  answer(question: { id: string; question: string }): Promise<SystemAnswer>
}
