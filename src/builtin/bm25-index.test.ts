import { describe, expect, it } from 'vitest'
import { DEFAULT_RETRIEVER_OPTIONS } from '../contract/retriever-options.ts'
import { bm25IndexBuilder, buildBm25Index } from './bm25-index.ts'
import type { Chunk } from './chunker.ts'
import { contentTerms, indexWords, termOf } from '../text/text-analyzer.ts'

/** Chunks whose words take both of the index's paths: ASCII texts scanned by span, and texts with other characters cut by the regex. */
const TEXTS: [heading: string, body: string][] = [
  ['Dogs', "The dog's bone. DOG'S BONES: the dogs' bones, don't they?"],
  ['Dogs', 'Dog’s bone, déjà vu; the dog’s owner'],
  ['Latency > p99', 'p99 latency was 2.5 ms, then 2.5.1 went out; its latency is 3x lower'],
  ['Latency > p99', "It's the owner's dog and the dog's owner's cat's toy."],
  ['Empty', ''],
]
const chunks: Chunk[] = TEXTS.map(([heading, body], i) => ({
  chunkId: `d#${i + 1}`,
  docId: 'd',
  ordinal: i,
  heading,
  text: `${heading}\n${body}`,
  tokens: 0,
}))

describe('buildBm25Index', () => {
  it.each([
    ['the defaults (possessive filter, title field)', DEFAULT_RETRIEVER_OPTIONS],
    ['no possessive filter, no title field', { ...DEFAULT_RETRIEVER_OPTIONS, possessives: false, titleWeight: 0 }],
  ])('posts each term to the chunks whose indexWords have it, with the BM25F weight of its frequencies: %s', (_, options) => {
    const { k1, b, titleWeight } = options
    const index = buildBm25Index(chunks, options)
    const words = chunks.map((chunk) => indexWords(chunk.text, options))
    const titles = chunks.map((chunk) => indexWords(chunk.heading, options))
    const average = (lists: string[][]) => lists.reduce((sum, list) => sum + new Set(list).size, 0) / lists.length
    const averageLength = average(words)
    const averageTitle = average(titles)
    const termsOf = (list: string[]) => list.map(termOf).filter((term): term is string => term !== null)
    const expected = new Map<string, { chunk: number; weight: number }[]>()
    chunks.forEach((_, id) => {
      const terms = termsOf(words[id]!)
      const titleTerms = termsOf(titles[id]!)
      const norm = 1 - b + (b * new Set(words[id]).size) / averageLength
      const titleNorm = 1 - b + (b * new Set(titles[id]).size) / averageTitle
      for (const term of new Set(terms)) {
        const tf = terms.filter((t) => t === term).length
        const titleTf = titleTerms.filter((t) => t === term).length
        const pseudo = tf / norm + (titleWeight * titleTf) / titleNorm
        expected.set(term, [...(expected.get(term) ?? []), { chunk: id, weight: (pseudo * (k1 + 1)) / (k1 + pseudo) }])
      }
    })
    // With the filter "dog's" and "dog’s" index as "dog"; without it "dog's" stems to "dog'".
    expect(index.termIds.has('dog')).toBe(true)
    expect(index.termIds.has("dog'")).toBe(!options.possessives)
    expect([...index.termIds.keys()].sort()).toEqual([...expected.keys()].sort())
    for (const [term, postings] of expected) {
      const t = index.termIds.get(term)!
      const start = index.postingStart[t]!
      const end = index.postingStart[t + 1]!
      expect(Array.from(index.postingChunk.subarray(start, end)), term).toEqual(postings.map((p) => p.chunk))
      Array.from(index.postingWeight.subarray(start, end)).forEach((weight, i) =>
        expect(weight, term).toBeCloseTo(postings[i]!.weight, 12),
      )
    }
  })

  it.each([
    ['the defaults (possessive filter, title field)', DEFAULT_RETRIEVER_OPTIONS],
    ['no possessive filter, no title field', { ...DEFAULT_RETRIEVER_OPTIONS, possessives: false, titleWeight: 0 }],
  ])("counts each content term's chunks in the same scan, as contentTerms finds them: %s", (_, options) => {
    // Beside the chunks above (possessives, typographic apostrophes, other scripts): plain ASCII ones, and one
    // whose heading is not a line of its text.
    const plain = ['Sampling rates', 'The sampling rate is 10 percent; the rate is per trace.', 'Head > Tail']
    const all: Chunk[] = [
      ...chunks,
      ...plain.map((text, i) => ({ ...chunks[0]!, ordinal: chunks.length + i, heading: 'Sampling', text })),
      { ...chunks[0]!, ordinal: chunks.length + plain.length, heading: "Owner's guide to quotas", text: 'Rates and limits' },
    ]
    const builder = bm25IndexBuilder(options)
    for (const chunk of all) builder.add(chunk.text, chunk.heading)
    builder.finish()
    const expected = new Map<string, number>()
    for (const chunk of all)
      for (const term of new Set(contentTerms(chunk.text))) expected.set(term, (expected.get(term) ?? 0) + 1)
    const byTerm = (counts: Map<string, number>) => [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    expect(byTerm(builder.contentTermFrequencies())).toEqual(byTerm(expected))
    expect(expected.get("dog'")).toBe(2)
    expect(expected.has('guid')).toBe(false)
  })
})
