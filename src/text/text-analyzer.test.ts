import { describe, expect, it } from 'vitest'
import { Mulberry32 } from '../statistics/seeded-random.ts'
import { contentTerms, termOf, tokenizeWords } from './text-analyzer.ts'

/** The definition contentTerms implements: termOf of each of the regex's words in the lower-cased text, stopwords dropped. */
const WORD = /[\p{L}\p{N}]+(?:[.'][\p{L}\p{N}]+)*/gu
const reference = (text: string) => (text.toLowerCase().match(WORD) ?? []).map(termOf).filter((term) => term !== null)

describe('contentTerms', () => {
  it('stems the words, drops the stopwords and keeps numbers, versions and contractions whole', () => {
    expect(contentTerms('The Sampled p99 latency, v2.5.1 and 3.5: sampling!')).toEqual([
      'sampl',
      'p99',
      'latenc',
      'v2.5.1',
      '3.5',
      'sampl',
    ])
    // A period or apostrophe joins two runs only when a letter or digit follows it.
    expect(contentTerms("Rock'n'roll ends. 'quoted' x.")).toEqual(["rock'n'rol", 'end', 'quot', 'x'])
    expect(contentTerms('')).toEqual([])
  })

  it('finds the same terms as the Unicode regex, ASCII or not, over thousands of distinct words', () => {
    const random = new Mulberry32(11)
    const pieces = ['a', 'B', 'q', 'Z', '0', '7', '.', "'", ' ', '-', '\n', ',', 'ing', 'ed ', 'the ', 'é', 'İ', '’', '\u0080']
    for (let k = 0; k < 20000; k++) {
      // Seven in ten texts ASCII only (the first 15 pieces); long enough to make thousands of distinct words.
      const ascii = random.next() < 0.7
      let text = ''
      for (let j = Math.floor(random.next() * 40); j > 0; j--)
        text += pieces[Math.floor(random.next() * (ascii ? 15 : pieces.length))]
      expect(contentTerms(text), JSON.stringify(text)).toEqual(reference(text))
      expect(tokenizeWords(text)).toEqual(text.toLowerCase().match(WORD) ?? [])
    }
  })
})
