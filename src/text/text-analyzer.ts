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
 * Words of a text as the retriever indexes them: `tokenizeWords`, and with `possessives` a trailing 's
 * (or ’s) dropped from each word, as Lucene's EnglishPossessiveFilter does, so "Love's" and "Love’s"
 * index as "love" (without it, "love's" stems to "love'" and never meets "love"). "don't" is untouched.
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

/**
 * A search term for a word: null for stopwords, else its Porter stem ("sampling" -> "sampl"), so that
 * "sampled" matches "sampling". Numbers are kept as they are.
 */
export function termOf(word: string): string | null {
  const known = TERMS.get(word)
  if (known !== undefined) return known
  const term = STOPWORDS.has(word) ? null : /^\p{N}/u.test(word) ? word : stemmer(word)
  TERMS.set(word, term)
  return term
}

/** termOf by a word's span in a lower-cased ASCII text (ascii-word-spans.ts): no string per word seen before. */
const SPAN_TERMS = new SpanTable(termOf)

/**
 * The content terms of a text: words minus stopwords, stemmed (termOf of each of tokenizeWords' words, in
 * order). Shared by BM25 and lexical judges. ASCII text is scanned once and looked up by span (SPAN_TERMS).
 */
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
