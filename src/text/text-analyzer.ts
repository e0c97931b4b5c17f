// The English list alone: the package's main module loads all its languages, a start-up cost (docs/scaling.md).
import { eng as englishStopwords } from 'stopword/src/stopwords_eng.js'
import { stemmer } from 'stemmer'
import { SpanTable } from './span-table.ts'
import { asciiWordSpans } from './ascii-word-spans.ts'

const STOPWORDS = new Set(englishStopwords)
const WORD = /[\p{L}\p{N}]+(?:[.'][\p{L}\p{N}]+)*/gu

/** Lower-cased words and numbers of a text, in order ("p99", "2.5" and "don't" stay whole). */
export function tokenizeWords(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? []
}

/** Whether a lower-cased word is an English stopword (the stopword package's list). */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word)
}

const TYPOGRAPHIC_APOSTROPHES = /[\u2019\uFF07]/g

/**
 * Words as the retriever indexes them: `tokenizeWords`, with `possessives` a trailing 's or ’s dropped as Lucene's
 * EnglishPossessiveFilter does ("love's" would stem to "love'" and never meet "love").
 */
export function indexWords(text: string, options: { possessives: boolean }): string[] {
  if (!options.possessives) return tokenizeWords(text)
  const words = tokenizeWords(text.replace(TYPOGRAPHIC_APOSTROPHES, "'"))
  // endsWith, not a regex per word: indexing meets every word of the corpus.
  for (let i = 0; i < words.length; i++) if (words[i]!.endsWith("'s")) words[i] = words[i]!.slice(0, -2)
  return words
}

/** Every word's term once computed: a corpus repeats its words (Zipf), and stemming is most of indexing's time. */
const TERMS = new Map<string, string | null>()

/** A word's search term: null for stopwords, else its Porter stem ("sampling" -> "sampl"); numbers as they are. */
export function termOf(word: string): string | null {
  const known = TERMS.get(word)
  if (known !== undefined) return known
  const term = STOPWORDS.has(word) ? null : /^\p{N}/u.test(word) ? word : stemmer(word)
  TERMS.set(word, term)
  return term
}

/** termOf by a word's span in a lower-cased ASCII text (ascii-word-spans.ts): no string per word seen before. */
const SPAN_TERMS = new SpanTable(termOf)

/** The content terms of a text, in order: termOf of each of tokenizeWords' words; ASCII text scanned once, looked up by span. */
export function contentTerms(text: string): string[] {
  const terms: string[] = []
  const lower = text.toLowerCase()
  const spans = asciiWordSpans(lower)
  if (spans === null) {
    for (const word of tokenizeWords(text)) {
      const term = termOf(word)
      if (term !== null) terms.push(term)
    }
    return terms
  }
  const { count, starts, ends, hashes } = spans
  for (let k = 0; k < count; k++) {
    const term = SPAN_TERMS.get(lower, starts[k]!, ends[k]!, hashes[k]!)
    if (term !== null) terms.push(term)
  }
  return terms
}
