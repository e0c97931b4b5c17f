import { describe, expect, it } from 'vitest'
import { sentenceSegments } from './sentence-segments.ts'

const icu = new Intl.Segmenter('en', { granularity: 'sentence' })
const reference = (text: string) => Array.from(icu.segment(text), (s) => s.segment)

describe('sentenceSegments', () => {
  it('applies the sentence-break rules of UAX #29 to printable ASCII', () => {
    // SB11: a break after a terminator, its closing punctuation and spaces.
    expect(sentenceSegments('It runs. It stops! Does it? Yes.')).toEqual(['It runs. ', 'It stops! ', 'Does it? ', 'Yes.'])
    expect(sentenceSegments('He said "stop." Then (quietly.) Left')).toEqual(['He said "stop." ', 'Then (quietly.) ', 'Left'])
    // SB6 (a period before a digit), SB7 (letter, period, capital), SB8 (a lower-case word after a period).
    expect(sentenceSegments('Version 2.5.1 is out. Costs 3.5 USD.')).toEqual(['Version 2.5.1 is out. ', 'Costs 3.5 USD.'])
    expect(sentenceSegments('The U.S.A. is big. e.g. this one.')).toEqual(['The U.S.A. is big. e.g. this one.'])
    expect(sentenceSegments('Go to x.Yes and 3.Yes')).toEqual(['Go to x.Yes and 3.', 'Yes'])
    expect(sentenceSegments('See fig. 3 and etc. and more. Done')).toEqual(['See fig. 3 and etc. and more. ', 'Done'])
    // SB8a: a comma, colon, semicolon or dash, or another terminator, continues the sentence.
    expect(sentenceSegments('Wait!? No. ; yes. - and: Ok')).toEqual(['Wait!? ', 'No. ; yes. - and: Ok'])
    expect(sentenceSegments('')).toEqual([])
  })

  it('cuts text as Intl.Segmenter does, for ASCII and for any other text (which it hands to the segmenter)', () => {
    const texts = [
      'Mr. Smith went to Washington. He arrived at 5 p.m. on Monday.',
      'A list: one; two... three?! "Quoted." (Parenthesised.) [Bracketed!] {Braced?} end',
      'Numbers 1.2.3 and .5 and 5. 6 and a. b and A. B and x.Y and X.y',
      'Spaces  .  double   ?   "  x',
      'Naïve café. Über alles! 日本語の文。次の文。',
      'Tabs\tand\r\nnew lines.\nNext line.',
    ]
    for (const text of texts) expect(sentenceSegments(text), text).toEqual(reference(text))
  })
})
