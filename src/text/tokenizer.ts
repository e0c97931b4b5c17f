import { createRequire } from 'node:module'
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/esm/encodingParams/constants'
import { o200kAsciiPieces } from './o200k-ascii-pieces.ts'
import { SpanTable } from './span-table.ts'

/**
 * Token counting for chunk sizes and the context budget. o200k_base (via gpt-tokenizer, pure
 * TypeScript, no native code or downloads) is a real BPE vocabulary of a production model family;
 * Claude's tokenizer is not public, and o200k counts English prose within a few percent of it, which
 * is what a budget needs. Swapping tokenizers changes chunk boundaries, so it is part of the config.
 */
export const TOKENIZER_NAME = 'o200k_base'

type O200k = typeof import('gpt-tokenizer/encoding/o200k_base')
const require = createRequire(import.meta.url)
let o200k: O200k | undefined
/**
 * The vocabulary, loaded on first use (synchronously, through its CommonJS build): its loading time is
 * what a run whose pieces are all known (token-count-cache.ts) never pays (docs/scaling.md). Loaded by
 * a require of its own, which nothing keeps: releaseVocabulary can let it go.
 */
const vocabulary = (): O200k => (o200k ??= createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as O200k)

/**
 * Lets the vocabulary go (tens of megabytes once loaded, part of it given back at once; docs/scaling.md) when a
 * run is done counting, the corpus chunked: the next count loads it again. Its CommonJS modules leave
 * Node's module cache with it.
 */
export function releaseVocabulary(): void {
  if (o200k === undefined) return
  o200k = undefined
  const loaded = require.resolve('gpt-tokenizer/package.json').replace(/package\.json$/, '')
  for (const file of Object.keys(require.cache)) if (file.startsWith(loaded)) delete require.cache[file]
}

/** gpt-tokenizer's version: a piece's count may change with it. */
export const TOKENIZER_VERSION: string = (require('gpt-tokenizer/package.json') as { version: string }).version

/** Token counts of the pieces o200k's pre-tokenizer cuts text into: a corpus repeats its words. */
const PIECE_TOKENS = new Map<string, number>()

/**
 * The pre-tokenizer's pattern (global), our own instance: text.match over it is a fraction of matchAll's cost, which copies the
 * pattern and builds an iterator per text.
 */
const PIECES = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, O200K_TOKEN_SPLIT_REGEX.flags)

/** The pieces counted so far (by this process, or read from a cache file), for token-count-cache.ts. */
export function pieceTokenCounts(): Map<string, number> {
  return PIECE_TOKENS
}

/** A piece's token count: from PIECE_TOKENS (this process's, or the cache file's), else counted by the vocabulary and remembered there. */
function pieceTokens(piece: string): number {
  let tokens = PIECE_TOKENS.get(piece)
  if (tokens === undefined) {
    tokens = vocabulary().countTokens(piece)
    PIECE_TOKENS.set(piece, tokens)
  }
  return tokens
}

/**
 * The counts of the pieces of ASCII texts, found by span (o200k-ascii-pieces.ts) without a string per
 * piece. Each distinct piece goes through pieceTokens once, so PIECE_TOKENS (and the cache file) still
 * gets every piece, and a piece read from the cache file never loads the vocabulary.
 */
const ASCII_PIECE_TOKENS = new SpanTable<number>(pieceTokens)

/**
 * The number of o200k_base tokens of a text, as gpt-tokenizer's countTokens gives it: BPE never merges
 * across the pre-tokenizer's pieces, so the count is the sum over the pieces, each counted once per
 * process (gpt-tokenizer's own cache is an LRU that reorders on every hit; this one only grows, by the
 * corpus's distinct words). A special-token string in a text ("<|endoftext|>" in a document about
 * tokenizers) is text like any other: its pieces are counted (gpt-tokenizer would refuse the whole text).
 * ASCII text (nearly all of an English corpus) is cut by char code and its pieces looked up by span, no
 * string per piece, faster than match() and a Map lookup per piece (docs/scaling.md). A text with any
 * other char is cut by the pattern.
 */
export function countTextTokens(text: string): number {
  let count = 0
  const spans = o200kAsciiPieces(text)
  if (spans !== null) {
    const { starts, ends, hashes } = spans
    for (let k = 0; k < spans.count; k++) count += ASCII_PIECE_TOKENS.get(text, starts[k]!, ends[k]!, hashes[k]!)
    return count
  }
  // One match() call for all the pieces: a fifth cheaper than an exec() loop, which makes a match array each.
  for (const piece of text.match(PIECES) ?? []) count += pieceTokens(piece)
  return count
}

/** A special-token string in a corpus or an answer is text, not a control token: encoded as plain text, never refused. */
const AS_TEXT = { disallowedSpecial: new Set<string>() }

/** Splits text into pieces of at most `maxTokens` tokens each (for a sentence longer than a chunk). */
export function splitByTokens(text: string, maxTokens: number): string[] {
  const { encode, decode } = vocabulary()
  const tokens = encode(text, AS_TEXT)
  const pieces: string[] = []
  for (let start = 0; start < tokens.length; start += maxTokens) {
    pieces.push(decode(tokens.slice(start, start + maxTokens)))
  }
  return pieces
}
