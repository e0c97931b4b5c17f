import { countTokens, decode, encode } from 'gpt-tokenizer/encoding/o200k_base'
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/esm/encodingParams/constants'

/**
 * Token counting for chunk sizes and the context budget. o200k_base (via gpt-tokenizer, pure
 * TypeScript, no native code or downloads) is a real BPE vocabulary of a production model family;
 * Claude's tokenizer is not public, and o200k counts English prose within a few percent of it, which
 * is what a budget needs. Swapping tokenizers changes chunk boundaries, so it is part of the config.
 */
export const TOKENIZER_NAME = 'o200k_base'

/** Token counts of the pieces o200k's pre-tokenizer cuts text into: a corpus repeats its words. */
const PIECE_TOKENS = new Map<string, number>()

/**
 * The number of o200k_base tokens of a text, as gpt-tokenizer's countTokens gives it: BPE never merges
 * across the pre-tokenizer's pieces, so the count is the sum over the pieces, each counted once per
 * process (gpt-tokenizer's own cache is an LRU that reorders on every hit; this one only grows, by the
 * corpus's distinct words). A text holding a special-token string goes to countTokens whole.
 */
export function countTextTokens(text: string): number {
  if (text.includes('<|')) return countTokens(text)
  let count = 0
  for (const [piece] of text.matchAll(O200K_TOKEN_SPLIT_REGEX)) {
    let tokens = PIECE_TOKENS.get(piece)
    if (tokens === undefined) {
      tokens = countTokens(piece)
      PIECE_TOKENS.set(piece, tokens)
    }
    count += tokens
  }
  return count
}

/** Splits text into pieces of at most `maxTokens` tokens each (for a sentence longer than a chunk). */
export function splitByTokens(text: string, maxTokens: number): string[] {
  const tokens = encode(text)
  const pieces: string[] = []
  for (let start = 0; start < tokens.length; start += maxTokens) {
    pieces.push(decode(tokens.slice(start, start + maxTokens)))
  }
  return pieces
}
