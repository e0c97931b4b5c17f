// The English list alone: the package's main module loads its 62 languages (a tenth of `rag-eval retrieval`'s start-up).
import { eng as englishStopwords } from 'stopword/src/stopwords_eng.js'
import { stemmer } from 'stemmer'
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

/**
 * termOf for the words of lower-cased ASCII texts, found by their span in the text (ascii-word-spans.ts)
 * instead of by a string: no string is cut out of the text for a word seen before, and the lookup hashes
 * nothing (the scan did). Open addressing over the spans' FNV-1a hashes, each entry's word compared char by
 * char; the table doubles at half full. Like TERMS, it holds each distinct word of the texts once.
 */
class SpanTerms {
  #mask = 1023
  #slots = new Int32Array(1024)
  readonly #hashes: number[] = []
  readonly #words: string[] = []
  readonly #terms: (string | null)[] = []

  termOf(lower: string, start: number, end: number, hash: number): string | null {
    const length = end - start
    let slot = hash & this.#mask
    for (let entry = this.#slots[slot]! - 1; entry >= 0; entry = this.#slots[slot]! - 1) {
      if (this.#hashes[entry] === hash && this.#words[entry]!.length === length && sameChars(this.#words[entry]!, lower, start)) return this.#terms[entry]!
      slot = (slot + 1) & this.#mask
    }
    const word = lower.slice(start, end)
    const term = termOf(word)
    this.#slots[slot] = this.#words.push(word)
    this.#hashes.push(hash)
    this.#terms.push(term)
    if (this.#words.length * 2 > this.#mask) this.#grow()
    return term
  }

  #grow(): void {
    this.#mask = this.#mask * 2 + 1
    this.#slots = new Int32Array(this.#mask + 1)
    for (let entry = 0; entry < this.#words.length; entry++) {
      let slot = this.#hashes[entry]! & this.#mask
      while (this.#slots[slot] !== 0) slot = (slot + 1) & this.#mask
      this.#slots[slot] = entry + 1
    }
  }
}

/** Whether `text` holds `word` from `start` (the caller has checked that the length fits). */
function sameChars(word: string, text: string, start: number): boolean {
  for (let k = 0; k < word.length; k++) if (word.charCodeAt(k) !== text.charCodeAt(start + k)) return false
  return true
}

const SPAN_TERMS = new SpanTerms()

/**
 * The content terms of a text: words minus stopwords, stemmed (termOf of each of tokenizeWords' words, in
 * order). Shared by BM25 and lexical judges. ASCII text is scanned once and looked up by span (SpanTerms).
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
    const term = SPAN_TERMS.termOf(lower, starts[k]!, ends[k]!, hashes[k]!)
    if (term !== null) terms.push(term)
  }
  return terms
}
