import { termOf, tokenizeWords } from './text-analyzer.ts'

/**
 * For each content term (termOf), the number of chunks whose text holds it: each chunk counts a term
 * once. Additive: the counts of disjoint sets of chunks sum to the counts of their union, so chunks
 * counted on several threads merge with addDocumentFrequencies.
 */
export function chunkDocumentFrequencies(chunks: readonly { text: string }[]): Map<string, number> {
  // Each distinct word's term once (null: a stopword), with its count and the last chunk that counted it:
  // one lookup per word of the corpus, no set per chunk.
  const counts = new Map<string, { chunks: number; last: number }>()
  const ofWord = new Map<string, { chunks: number; last: number } | null>()
  chunks.forEach((chunk, id) => {
    for (const word of tokenizeWords(chunk.text)) {
      let entry = ofWord.get(word)
      if (entry === undefined) {
        const term = termOf(word)
        entry = term === null ? null : (counts.get(term) ?? counts.set(term, { chunks: 0, last: -1 }).get(term)!)
        ofWord.set(word, entry)
      }
      if (entry === null || entry.last === id) continue
      entry.last = id
      entry.chunks++
    }
  })
  return new Map([...counts].map(([term, { chunks }]) => [term, chunks]))
}

/** Adds the document frequencies of other chunks (disjoint from those `into` counted) to `into`. */
export function addDocumentFrequencies(into: Map<string, number>, other: ReadonlyMap<string, number>): void {
  for (const [term, chunks] of other) into.set(term, (into.get(term) ?? 0) + chunks)
}

/** Inverse document frequency over `chunkCount` chunks, log(1 + N / df); a term no chunk holds weighs 0. */
export function inverseDocumentFrequency(frequencies: ReadonlyMap<string, number>, chunkCount: number): (term: string) => number {
  return (term) => {
    const count = frequencies.get(term)
    return count === undefined ? 0 : Math.log(1 + chunkCount / count)
  }
}
