import { countTokens, decode, encode } from 'gpt-tokenizer/encoding/o200k_base'

/**
 * Token counting for chunk sizes and the context budget. o200k_base (via gpt-tokenizer, pure
 * TypeScript, no native code or downloads) is a real BPE vocabulary of a production model family;
 * Claude's tokenizer is not public, and o200k counts English prose within a few percent of it, which
 * is what a budget needs. Swapping tokenizers changes chunk boundaries, so it is part of the config.
 */
export const TOKENIZER_NAME = 'o200k_base'

export function countTextTokens(text: string): number {
  return countTokens(text)
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
