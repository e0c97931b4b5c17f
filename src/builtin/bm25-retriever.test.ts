import MiniSearch from 'minisearch'
import { describe, expect, it } from 'vitest'
import { loadCorpus } from '../load/corpus.ts'
import { loadGoldenSet } from '../load/golden-set.ts'
import { Bm25Retriever } from './bm25-retriever.ts'
import { chunkCorpus, type Chunk } from './chunker.ts'
import { DEFAULT_RETRIEVER_OPTIONS, MINISEARCH_RETRIEVER_OPTIONS } from '../contract/retriever-options.ts'
import { generateSyntheticCorpus } from '../testing/synthetic-corpus.ts'
import { buildBm25Index } from './bm25-index.ts'
import { indexWords, termOf, tokenizeWords } from '../text/text-analyzer.ts'

/**
 * Bm25Retriever reproduces MiniSearch's BM25+ scoring with a leaner index (MiniSearch was too slow on large
 * corpora: docs/scaling.md) when given the old scoring mode explicitly (MINISEARCH_RETRIEVER_OPTIONS; the
 * defaults are Lucene's scoring now). This test holds it to MiniSearch itself, result for result.
 */
describe('Bm25Retriever', () => {
  const corpus = loadCorpus('corpus')
  const chunks = chunkCorpus(corpus, { chunkTokens: 160, chunkOverlap: 32 })
  const retriever = new Bm25Retriever(chunks, MINISEARCH_RETRIEVER_OPTIONS)
  const reference = new MiniSearch<{ id: number; text: string }>({
    fields: ['text'],
    tokenize: tokenizeWords,
    processTerm: termOf,
  })
  reference.addAll(chunks.map((chunk, id) => ({ id, text: chunk.text })))
  const referenceSearch = (query: string, depth: number) =>
    reference
      .search(query, { tokenize: tokenizeWords, processTerm: termOf })
      .map((r) => ({ chunkId: chunks[r.id as number]!.chunkId, ordinal: chunks[r.id as number]!.ordinal, score: r.score }))
      .sort((a, b) => b.score - a.score || a.ordinal - b.ordinal)
      .slice(0, depth)
      .map(({ chunkId, score }) => ({ chunkId, score }))

  const queries = [
    ...loadGoldenSet('evals/golden-set.json', corpus).map((q) => q.question),
    'sampling sampling rate rate',
    'the of and',
    '',
    'a term no chunk has: zyxwvut',
  ]

  it('ranks every golden question and edge-case query exactly as MiniSearch does (chunks and scores)', () => {
    for (const query of queries) {
      const ours = retriever.search(query, 50).map(({ chunk, score }) => ({ chunkId: chunk.chunkId, score }))
      expect(ours, query).toEqual(referenceSearch(query, 50))
    }
  })

  it('keeps the best `depth` results only, and none for a query without index terms', () => {
    expect(retriever.search('trace sampling rate override', 3)).toHaveLength(3)
    expect(retriever.search('the of and', 50)).toEqual([])
  })
})

/** A chunk as the chunker writes it: the heading line, then the text. */
function chunkOf(ordinal: number, heading: string, body: string): Chunk {
  return { chunkId: `d${ordinal}#1`, docId: `d${ordinal}`, ordinal, heading, text: `${heading}\n${body}`, tokens: 0 }
}
const scores = (retriever: Bm25Retriever, query: string) =>
  retriever.search(query, 10).map(({ chunk, score }) => [chunk.chunkId, score])

describe('Bm25Retriever options', () => {
  // Three one-line chunks with empty headings (the heading line adds no words). Lengths in distinct words:
  // A 4 (solar panels convert sunlight), B 3 (solar wind storms), C 2 (wind turbines); average 3.
  const corpus = [
    chunkOf(0, '', 'solar panels convert sunlight'),
    chunkOf(1, '', 'solar wind solar storms'),
    chunkOf(2, '', 'wind turbines'),
  ]
  // Plain BM25 as Lucene's BM25Similarity scores it: k1 = 1.2, b = 0.75, no delta, no coordination.
  // idf(solar) = idf(wind) = ln(1 + (3 - 2 + 0.5) / (2 + 0.5)) = ln 1.6 = 0.4700036
  // A: solar tf 1, norm 0.25 + 0.75·4/3 = 1.25: 2.2 / (1 + 1.5) = 0.88             -> 0.4136032
  // B: solar tf 2, norm 1: 4.4 / 3.2 = 1.375; wind tf 1: 2.2 / 2.2 = 1            -> 2.375 · idf = 1.1162586
  // C: wind tf 1, norm 0.25 + 0.75·2/3 = 0.75: 2.2 / (1 + 0.9) = 1.1578947         -> 0.5442147
  const idf = Math.log(1.6)
  const plain = { coordination: false, k1: 1.2, b: 0.75, delta: 0 }

  it('scores plain BM25 (Lucene) by hand-worked values with coordination and delta off', () => {
    const ranked = scores(new Bm25Retriever(corpus, plain), 'solar wind')
    expect(ranked.map(([id]) => id)).toEqual(['d1#1', 'd2#1', 'd0#1'])
    expect(ranked[0]![1]).toBeCloseTo(2.375 * idf, 12)
    expect(ranked[1]![1]).toBeCloseTo((2.2 / 1.9) * idf, 12)
    expect(ranked[2]![1]).toBeCloseTo(0.88 * idf, 12)
    expect(idf).toBeCloseTo(0.4700036, 7)
  })

  it('multiplies by the distinct query terms matched with coordination on, and adds delta·idf per term (BM25+)', () => {
    const coordinated = new Map(
      scores(new Bm25Retriever(corpus, { ...plain, coordination: true }), 'solar wind') as [string, number][],
    )
    expect(coordinated.get('d1#1')).toBeCloseTo(2 * 2.375 * idf, 12)
    expect(coordinated.get('d2#1')).toBeCloseTo((2.2 / 1.9) * idf, 12)
    const plus = new Map(scores(new Bm25Retriever(corpus, { ...plain, delta: 0.5 }), 'solar wind') as [string, number][])
    expect(plus.get('d1#1')).toBeCloseTo((2.375 + 2 * 0.5) * idf, 12)
    expect(plus.get('d0#1')).toBeCloseTo((0.88 + 0.5) * idf, 12)
  })

  it('lets a rare term outrank many common ones only without coordination', () => {
    // "zebra" is in one chunk of five: idf ln(1 + 4.5/1.5) = 1.3863; alpha, beta, gamma in four: ln(1 + 1.5/4.5)
    // = 0.2877 each. Lengths 2 and 4 (average 3.6): the zebra chunk scores 1.3863·2.2/(1 + 1.2·0.6667) = 1.6944;
    // each other chunk 3·0.2877·2.2/(1 + 1.2·1.0833) = 0.8256, times 3 matched terms with coordination = 2.4768.
    const zoo = [
      chunkOf(0, '', 'zebra stripes'),
      chunkOf(1, '', 'alpha beta gamma one'),
      chunkOf(2, '', 'alpha beta gamma two'),
      chunkOf(3, '', 'alpha beta gamma three'),
      chunkOf(4, '', 'alpha beta gamma four'),
    ]
    const top = (coordination: boolean) =>
      new Bm25Retriever(zoo, { ...plain, coordination }).search('zebra alpha beta gamma', 1)[0]!
    expect(top(true)).toMatchObject({ chunk: { chunkId: 'd1#1' }, score: expect.closeTo(2.4768, 3) })
    expect(top(false)).toMatchObject({ chunk: { chunkId: 'd0#1' }, score: expect.closeTo(1.6944, 3) })
  })

  it("drops possessive 's from documents and queries with `possessives`, as Lucene's EnglishPossessiveFilter", () => {
    expect(indexWords("Love's Labour’s Lost; don't", { possessives: true })).toEqual(['love', 'labour', 'lost', "don't"])
    expect(indexWords("Love's Labour’s Lost", { possessives: false })).toEqual(["love's", 'labour', 's', 'lost'])
    const plays = [chunkOf(0, '', "Love's Labour's Lost is a comedy"), chunkOf(1, '', 'A comedy of errors')]
    expect(new Bm25Retriever(plays, { possessives: false }).search('love', 5)).toEqual([])
    expect(new Bm25Retriever(plays, { possessives: true }).search('love', 5).map(({ chunk }) => chunk.chunkId)).toEqual(['d0#1'])
    expect(new Bm25Retriever(plays, { possessives: true }).search('Love’s', 5).map(({ chunk }) => chunk.chunkId)).toEqual([
      'd0#1',
    ])
  })

  it('weights the heading as a BM25F title field with `titleWeight`, which can change the order', () => {
    // X: heading "Kafka retention"; text words kafka retention brokers delete old segments after the
    //    retention period: 9 distinct, title 2 distinct. Y: heading "Consumers"; consumers kafka read from
    //    brokers: 5 distinct, title 1. Averages 7 and 1.5; idf(kafka) = ln(1 + 0.5/2.5) = ln 1.2.
    // b = 0.7: norm X = 0.3 + 0.7·9/7 = 1.2, Y = 0.3 + 0.7·5/7 = 0.8; title norm X = 0.3 + 0.7·2/1.5 = 1.233333.
    // w = 0: X 2.2/(1 + 1.2·1.2) = 0.901639, Y (tf 2) 4.4/(2 + 1.2·0.8) = 1.486486: Y first.
    // w = 3: X pseudo-tf 1/1.2 + 3/1.233333 = 3.265766 -> 7.184685/(1.2 + 3.265766) = 1.608836: X first.
    const x = chunkOf(0, 'Kafka retention', 'Brokers delete old segments after the retention period.')
    const y = chunkOf(1, 'Consumers', 'Kafka consumers read from Kafka brokers.')
    const idfKafka = Math.log(1.2)
    const untitled = scores(new Bm25Retriever([x, y], { coordination: false, delta: 0, b: 0.7, titleWeight: 0 }), 'kafka')
    expect(untitled).toEqual([
      ['d1#1', expect.closeTo(1.486486 * idfKafka, 6)],
      ['d0#1', expect.closeTo(0.901639 * idfKafka, 6)],
    ])
    const titled = scores(new Bm25Retriever([x, y], { coordination: false, delta: 0, b: 0.7, titleWeight: 3 }), 'kafka')
    expect(titled).toEqual([
      ['d0#1', expect.closeTo(1.608836 * idfKafka, 6)],
      ['d1#1', expect.closeTo(1.486486 * idfKafka, 6)],
    ])
  })
})

describe('Bm25Retriever without coordination, pruned (MaxScore over the most common term)', () => {
  const { documents, questions } = generateSyntheticCorpus({ seed: 7, documents: 1500, questions: 300 })
  const chunks = chunkCorpus(documents, { chunkTokens: 96, chunkOverlap: 16 })
  const index = buildBm25Index(chunks, DEFAULT_RETRIEVER_OPTIONS)
  const retriever = new Bm25Retriever(chunks, DEFAULT_RETRIEVER_OPTIONS, index)
  const terms = [...index.termIds.keys()]
  const df = (term: string) => index.postingStart[index.termIds.get(term)! + 1]! - index.postingStart[index.termIds.get(term)!]!
  const common = terms.filter((term) => df(term) >= 2048)
  const rare = terms.filter((term) => df(term) >= 60 && df(term) <= 200)

  /** A term's weight in each chunk that has it, read off the index's postings. */
  const weights = new Map<string, Map<number, number>>()
  const weightsOf = (term: string) => {
    let map = weights.get(term)
    if (!map) {
      const t = index.termIds.get(term)!
      map = new Map()
      for (let p = index.postingStart[t]!; p < index.postingStart[t + 1]!; p++)
        map.set(index.postingChunk[p]!, index.postingWeight[p]!)
      weights.set(term, map)
    }
    return map
  }
  /** Every chunk scored the slow way, from the same index: each query term's idf x weight in the chunk, added in query order; best first. */
  const reference = (query: string) => {
    const queryTerms = indexWords(query, DEFAULT_RETRIEVER_OPTIONS)
      .map(termOf)
      .filter((term): term is string => term !== null && index.termIds.has(term))
    const n = chunks.length
    const scored = chunks.map((chunk, id) => {
      let score = 0
      let matched = false
      for (const term of queryTerms) {
        const weight = weightsOf(term).get(id)
        if (weight === undefined) continue
        score += Math.log(1 + (n - df(term) + 0.5) / (df(term) + 0.5)) * weight
        matched = true
      }
      return { id, score, matched, ordinal: chunk.ordinal }
    })
    return scored
      .filter((s) => s.matched)
      .sort((a, b) => b.score - a.score || a.ordinal - b.ordinal)
      .map((s) => ({ chunkId: chunks[s.id]!.chunkId, score: s.score }))
  }

  it('has queries of the shape it prunes: terms in 2,048 chunks or more beside rare ones', () => {
    expect(chunks.length).toBeGreaterThan(4000)
    expect(common.length).toBeGreaterThan(0)
    expect(rare.length).toBeGreaterThan(20)
  })

  it('ranks exactly as scoring every chunk does (chunks and scores to the bit): a common word with rare ones, repeated words, the golden questions', () => {
    const queries = [
      ...rare.slice(0, 40).map((term, i) => `${common[i % common.length]} ${term} ${rare[(i * 7) % rare.length]}`),
      ...rare.slice(0, 10).map((term, i) => `${common[i % common.length]} ${term} ${common[i % common.length]}`),
      `${common[0]} ${rare[0]}`,
      common[0]!,
      ...questions.slice(0, 60).map((q) => q.question),
    ]
    for (const query of queries) {
      const expected = reference(query)
      for (const depth of [1, 20, 50]) {
        const ours = retriever.search(query, depth).map(({ chunk, score }) => ({ chunkId: chunk.chunkId, score }))
        expect(ours, `${query} @${depth}`).toEqual(expected.slice(0, depth))
      }
    }
  })
})
