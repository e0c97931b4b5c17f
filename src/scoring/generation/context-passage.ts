/** A passage of the context an answer was generated from, as the judges read it. */
export interface ContextPassage {
  chunkId: string
  text: string
}
