import { describe, expect, it } from 'vitest'
import { stripCitationMarkers } from '../../contract/citation-markers.ts'
import { citationScores, citedSentences, type SentenceCitations } from './citations.ts'

const IDS = ['c1', 'c2', 'c3']

describe('citedSentences', () => {
  it('reads [n], [1, 3] and [1][2] markers as the n-th context chunks, each sentence keeping its own', () => {
    expect(citedSentences('Traces last 30 days [1]. Snapshots run every 6 hours [1, 3]. Both apply [2][3].', IDS)).toEqual([
      { sentence: 'Traces last 30 days.', cited: ['c1'], fabricated: [] },
      { sentence: 'Snapshots run every 6 hours.', cited: ['c1', 'c3'], fabricated: [] },
      { sentence: 'Both apply.', cited: ['c2', 'c3'], fabricated: [] },
    ])
  })

  it('gives a marker after the full stop to the sentence it ends, and counts a repeated one once', () => {
    expect(citedSentences('Traces last 30 days.[2] Snapshots run every 6 hours. [3][3]', IDS)).toEqual([
      { sentence: 'Traces last 30 days.', cited: ['c2'], fabricated: [] },
      { sentence: 'Snapshots run every 6 hours.', cited: ['c3'], fabricated: [] },
    ])
  })

  it('lists a marker past the context ([7] of 3 chunks, [0]) as fabricated, by name; with no context every marker is', () => {
    expect(citedSentences('Traces last 30 days [7]. Snapshots run hourly [0, 2].', IDS)).toEqual([
      { sentence: 'Traces last 30 days.', cited: [], fabricated: ['[7]'] },
      { sentence: 'Snapshots run hourly.', cited: ['c2'], fabricated: ['[0]'] },
    ])
    expect(citedSentences('Traces last 30 days [1].', [])).toEqual([
      { sentence: 'Traces last 30 days.', cited: [], fabricated: ['[1]'] },
    ])
  })

  it('reads spans over the answer instead, a span citing every sentence it overlaps; an id outside the context is fabricated', () => {
    const answer = 'Traces last 30 days. Snapshots run every 6 hours.'
    // [0, 25) covers the first sentence and the start of the second.
    expect(
      citedSentences(answer, IDS, [
        { start: 0, end: 25, chunkIds: ['c1'] },
        { start: 21, end: 50, chunkIds: ['c3', 'doc-9#1'] },
      ]),
    ).toEqual([
      { sentence: 'Traces last 30 days.', cited: ['c1'], fabricated: [] },
      { sentence: 'Snapshots run every 6 hours.', cited: ['c1', 'c3'], fabricated: ['doc-9#1'] },
    ])
  })

  it('strips the markers, and the space before each, from the answer that is judged', () => {
    expect(stripCitationMarkers('Traces last 30 days [1]. Snapshots run hourly [1, 3][2].')).toBe(
      'Traces last 30 days. Snapshots run hourly.',
    )
  })
})

describe('citationScores', () => {
  const sentence = (over: Partial<SentenceCitations>): SentenceCitations => ({
    sentence: 's',
    cited: [],
    fabricated: [],
    needsSupport: true,
    supportedBy: [],
    supported: false,
    ...over,
  })

  it('has no precision when nothing is cited, and recall 0 when sentences need support', () => {
    const result = citationScores([sentence({}), sentence({ needsSupport: false })])
    expect(result).toMatchObject({ value: null, status: 'nothing-cited', numerator: 0, denominator: 0 })
    expect(result.supportedSentences).toEqual({ value: 0, status: 'scored', numerator: 0, denominator: 1 })
  })

  it('leaves out the citations of a sentence needing no support, but never a fabricated one', () => {
    // Precision: 1 supporting of c1, c2 (first sentence) + [9] (connective sentence) = 1/3. Recall: 1/1.
    const result = citationScores([
      sentence({ cited: ['c1', 'c2'], supportedBy: ['c1'], supported: true }),
      sentence({ needsSupport: false, cited: ['c3'], fabricated: ['[9]'] }),
    ])
    expect(result).toMatchObject({ value: 1 / 3, numerator: 1, denominator: 3, fabricated: ['[9]'] })
    expect(result.supportedSentences.value).toBe(1)
  })
})
