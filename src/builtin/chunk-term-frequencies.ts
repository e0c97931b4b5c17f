import type { Chunk } from './chunker.ts'
import { contentTerms } from '../text/text-analyzer.ts'

/**
 * Each content term's document frequency over the chunks (the number of chunks whose text has it), as the offline
 * answerer weighs question terms. A corpus built afresh counts them in its index's scan (bm25IndexBuilder's
 * countContentTerms); this counts them alone, for a kept corpus built without them.
 */
export function chunkTermFrequencies(chunks: readonly Chunk[]): Map<string, number> {
  // Each term's count with the last chunk that counted it: one lookup per term of the corpus, no set per chunk.
  const df = new Map<string, { chunks: number; last: number }>()
  chunks.forEach((chunk, id) => {
    for (const term of contentTerms(chunk.text)) {
      let entry = df.get(term)
      if (entry === undefined) df.set(term, (entry = { chunks: 0, last: -1 }))
      if (entry.last === id) continue
      entry.last = id
      entry.chunks++
    }
  })
  return new Map([...df].map(([term, entry]) => [term, entry.chunks]))
}
