import { factEvidence, type FactEvidence } from '../../text/key-facts.ts'

/** A passage of the context an answer was generated from, as the judges read it. */
export interface ContextPassage {
  chunkId: string
  text: string
}

/** A passage as the lexical judge reads it: its numbers and content terms, analysed once for every scorer of an answer. */
export interface AnalysedPassage {
  chunkId: string
  evidence: FactEvidence
}

export const analysePassages = (context: readonly ContextPassage[]): AnalysedPassage[] =>
  context.map((passage) => ({ chunkId: passage.chunkId, evidence: factEvidence(passage.text) }))
