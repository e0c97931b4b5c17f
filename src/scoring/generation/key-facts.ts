import { contentTerms } from '../../text/text-analyzer.ts'

/**
 * Numbers of a text, normalised so that the same quantity written differently compares equal:
 * thousands separators dropped ("5,000" -> "5000"), trailing zeros of decimals dropped ("2.50" -> "2.5"),
 * attached units split off ("90-day" -> "90", "15%" -> "15", "USD 0.25" -> "0.25", "p99" -> "99").
 * Version numbers stay whole ("3.4.1"). Returned in order of appearance, with repeats.
 */
export function extractNumbers(text: string): string[] {
  const numbers: string[] = []
  for (const match of text.matchAll(/\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)+|\d+/g)) {
    const raw = match[0].replace(/,/g, '')
    numbers.push(/^\d+\.\d+$/.test(raw) ? String(Number(raw)) : raw.replace(/^0+(?=\d)/, ''))
  }
  return numbers
}

/** The key facts of a text for coverage: its numbers and its content terms (stemmed, no stopwords). */
export function keyFacts(text: string): { numbers: string[]; terms: string[] } {
  const numbers = [...new Set(extractNumbers(text))]
  const numberSet = new Set(numbers)
  const terms = [...new Set(contentTerms(text))].filter((term) => !numberSet.has(term) && !/^\d/.test(term))
  return { numbers, terms }
}
