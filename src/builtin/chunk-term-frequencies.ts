import type { Chunk } from './chunker.ts'
import { contentTerms } from '../text/text-analyzer.ts'

/** Counts each content term's document frequency over chunks added one by one (in any order: a chunk is counted once per term). */
export interface TermFrequencyCounter {
  add(text: string): void
  /** Each content term's number of chunks whose text has it. */
  finish(): Map<string, number>
}

/** A counter of content-term document frequencies over chunk texts, as the offline answerer weighs question terms. */
export function termFrequencyCounter(): TermFrequencyCounter {
  // Each term's count with the last chunk that counted it: one lookup per term of the corpus, no set per chunk.
  const df = new Map<string, { chunks: number; last: number }>()
  let id = 0
  return {
    add(text) {
      for (const term of contentTerms(text)) {
        let entry = df.get(term)
        if (entry === undefined) df.set(term, (entry = { chunks: 0, last: -1 }))
        if (entry.last === id) continue
        entry.last = id
        entry.chunks++
      }
      id++
    },
    finish: () => new Map([...df].map(([term, entry]) => [term, entry.chunks])),
  }
}

/** Each content term's document frequency over the chunks (the number of chunks whose text has it). */
export function chunkTermFrequencies(chunks: readonly Chunk[]): Map<string, number> {
  const counter = termFrequencyCounter()
  for (const chunk of chunks) counter.add(chunk.text)
  return counter.finish()
}
