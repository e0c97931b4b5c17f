import { describe, expect, it } from 'vitest'
import { Bm25Retriever } from './bm25-retriever.ts'
import { CharNgramRetriever } from './char-ngram-retriever.ts'
import { charNgrams } from './char-ngrams.ts'
import type { Chunk } from './chunker.ts'

function chunkOf(ordinal: number, text: string): Chunk {
  return { chunkId: `d${ordinal}#1`, docId: `d${ordinal}`, ordinal, heading: '', text, tokens: 0 }
}

describe('charNgrams', () => {
  it('takes the 3- to 5-grams of the space-padded word', () => {
    expect(charNgrams('cat')).toEqual([' ca', 'cat', 'at ', ' cat', 'cat ', ' cat '])
    expect(charNgrams('a')).toEqual([' a '])
  })
})

describe('CharNgramRetriever', () => {
  it('scores the TF-IDF cosine over the corpus vocabulary (hand-worked)', () => {
    // Corpus "cat", "dog": every gram has df 1, so one idf and equal weights w; "cat" has 6 grams: unit
    // weights 1/sqrt(6). The query "cats" has 3 grams the corpus knows (" ca", "cat", " cat"): cosine
    // 3·(1/sqrt(3))·(1/sqrt(6)) = 1/sqrt(2). "dog" shares no gram and is not ranked. (Chunk weights are
    // stored in single precision: 7 significant digits.)
    const retriever = new CharNgramRetriever([chunkOf(0, 'cat'), chunkOf(1, 'dog')])
    expect(retriever.search('cats', 10).map(({ chunk, score }) => [chunk.chunkId, score])).toEqual([
      ['d0#1', expect.closeTo(Math.SQRT1_2, 6)],
    ])
    expect(retriever.search('cat', 10)[0]!.score).toBeCloseTo(1, 6)
  })
  it('finds the chunk a query with typos means, where BM25 finds nothing', () => {
    const corpus = [
      chunkOf(0, 'Retention policy: logs are deleted after thirty days.'),
      chunkOf(1, 'Tail sampling keeps traces by their sampling rate override.'),
      chunkOf(2, 'Alert routing sends pages to the on-call engineer.'),
    ]
    const query = 'samplng rte overide'
    expect(new Bm25Retriever(corpus).search(query, 10)).toEqual([])
    expect(new CharNgramRetriever(corpus).search(query, 10)[0]!.chunk.chunkId).toBe('d1#1')
  })
  it('ranks nothing for a query of stopwords only, and keeps `depth` results', () => {
    const corpus = [chunkOf(0, 'alpha beta'), chunkOf(1, 'alphabet soup'), chunkOf(2, 'alpine')]
    const retriever = new CharNgramRetriever(corpus)
    expect(retriever.search('the of and', 10)).toEqual([])
    expect(retriever.search('alpha', 2)).toHaveLength(2)
  })
})
