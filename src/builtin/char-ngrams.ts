/** Shortest and longest character n-grams of the n-gram retriever. */
const MIN_GRAM = 3
const MAX_GRAM = 5

/**
 * A word's character 3- to 5-grams, padded with a space each side to mark its edges as scikit-learn's 'char_wb'
 * does: "cat" -> " ca", "cat", "at ", " cat", "cat ", " cat ".
 */
export function charNgrams(word: string): string[] {
  const padded = ` ${word} `
  const grams: string[] = []
  for (let n = MIN_GRAM; n <= MAX_GRAM; n++) {
    for (let start = 0; start + n <= padded.length; start++) grams.push(padded.slice(start, start + n))
  }
  return grams
}
