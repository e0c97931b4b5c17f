import { createRequire } from 'node:module'
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/esm/encodingParams/constants'
import { o200kAsciiPieces } from './o200k-ascii-pieces.ts'
import { SpanTable } from './span-table.ts'

/**
 * Token counting for chunk sizes and the context budget: Claude's tokenizer is not public, and o200k_base (pure
 * TypeScript, no downloads) counts English prose within a few percent of it. It sets chunk boundaries: config.
 */
export const TOKENIZER_NAME = 'o200k_base'

type O200k = typeof import('gpt-tokenizer/encoding/o200k_base')
const require = createRequire(import.meta.url)
let o200k: O200k | undefined
/**
 * The vocabulary, loaded on first use so a run whose pieces are all cached never pays for it (docs/scaling.md,
 * "Start-up"); by a require of its own, which nothing keeps, so releaseVocabulary can let it go.
 */
const vocabulary = (): O200k => (o200k ??= createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as O200k)

/** Lets the vocabulary and its modules go once a run is done counting (docs/scaling.md, "Large golden sets"); the next count reloads it. */
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

/** The pre-tokenizer's pattern, our own instance for text.match (matchAll copies the pattern and builds an iterator per text). */
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

/** ASCII pieces' counts looked up by span, no string per piece; each distinct piece still reaches PIECE_TOKENS once. */
const ASCII_PIECE_TOKENS = new SpanTable<number>(pieceTokens)

/**
 * The number of o200k_base tokens of a text, as gpt-tokenizer's countTokens gives it: the sum over the pre-tokenizer's
 * pieces (BPE never merges across them), each counted once per process. A special-token string counts as text.
 * ASCII text is cut by char code (docs/scaling.md, "Why the code is shaped as it is"), any other by the pattern.
 */
export function countTextTokens(text: string): number {
  let count = 0
  const spans = o200kAsciiPieces(text)
  if (spans !== null) {
    const { starts, ends, hashes } = spans
    for (let k = 0; k < spans.count; k++) count += ASCII_PIECE_TOKENS.get(text, starts[k]!, ends[k]!, hashes[k]!)
    return count
  }
  // One match() call for all the pieces: an exec() loop makes a match array each.
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
