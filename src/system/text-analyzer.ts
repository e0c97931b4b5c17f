import stopwords from 'stopword'
import { stemmer } from 'stemmer'

const STOPWORDS = new Set(stopwords.eng)
const WORD = /[\p{L}\p{N}]+(?:[.'][\p{L}\p{N}]+)*/gu

/** Lower-cased words and numbers of a text, in order ("p99", "2.5" and "don't" stay whole). */
export function tokenizeWords(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? []
}

/**
 * A search term for a word: null for stopwords, else its Porter stem ("sampling" -> "sampl"), so that
 * "sampled" matches "sampling". Numbers are kept as they are.
 */
export function termOf(word: string): string | null {
  if (STOPWORDS.has(word)) return null
  return /^\p{N}/u.test(word) ? word : stemmer(word)
}

/** The content terms of a text: words minus stopwords, stemmed. Shared by BM25 and lexical judges. */
export function contentTerms(text: string): string[] {
  const terms: string[] = []
  for (const word of tokenizeWords(text)) {
    const term = termOf(word)
    if (term !== null) terms.push(term)
  }
  return terms
}
