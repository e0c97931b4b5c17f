/** Shortest and longest character n-grams of the n-gram retriever. */
const MIN_GRAM = 3
const MAX_GRAM = 5

/**
 * The character n-grams of a word, of lengths 3 to 5, taken from the word padded with a space on each
 * side so that grams at its edges are marked as such (" sam" starts a word; scikit-learn's 'char_wb'
 * analyzer pads the same way). A padded word shorter than n gives no gram of length n:
 * "cat" -> " ca", "cat", "at ", " cat", "cat ", " cat ".
 */
export function charNgrams(word: string): string[] {
  const padded = ` ${word} `
  const grams: string[] = []
  for (let n = MIN_GRAM; n <= MAX_GRAM; n++) {
    for (let start = 0; start + n <= padded.length; start++) grams.push(padded.slice(start, start + n))
  }
  return grams
}
