import { createRequire } from 'node:module'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/esm/encodingParams/constants'
import { describe, expect, it } from 'vitest'
import { o200kAsciiPieces } from './o200k-ascii-pieces.ts'
import { mulberry32 } from '../statistics/seeded-random.ts'
import { countTextTokens, pieceTokenCounts, releaseVocabulary } from './tokenizer.ts'

const PATTERN = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, O200K_TOKEN_SPLIT_REGEX.flags)

/** FNV-1a (32-bit, signed as in an Int32Array) of a string's UTF-16 code units, written from its definition. */
function fnv1a(piece: string): number {
  let hash = 0x811c9dc5
  for (const char of piece) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193)
  return hash | 0
}

/** The scan's pieces as strings, each checked to sit right after the one before and to carry its own hash; null when the scan gives up. */
function scannedPieces(text: string): string[] | null {
  const spans = o200kAsciiPieces(text)
  if (spans === null) return null
  const pieces: string[] = []
  let previousEnd = 0
  for (let k = 0; k < spans.count; k++) {
    const piece = text.slice(spans.starts[k], spans.ends[k])
    if (spans.starts[k] !== previousEnd || piece.length === 0 || spans.hashes[k] !== fnv1a(piece)) {
      throw new Error(
        `piece ${k} of ${JSON.stringify(text)}: [${spans.starts[k]}, ${spans.ends[k]}) after ${previousEnd}, hash ${spans.hashes[k]}`,
      )
    }
    pieces.push(piece)
    previousEnd = spans.ends[k]!
  }
  if (previousEnd !== text.length) throw new Error(`the pieces of ${JSON.stringify(text)} end at ${previousEnd}`)
  return pieces
}

describe('o200kAsciiPieces: the pieces of o200k’s pre-tokenizer, by char code', () => {
  // Each case's pieces worked out by hand from the pattern (o200k-ascii-pieces.ts explains each rule), then checked against the regex too.
  const cases: [string, string[]][] = [
    ['', []],
    ["don't", ["don't"]],
    ["IT'S", ["IT'S"]],
    ["we'Ll they'VE you're", ["we'Ll", " they'VE", " you're"]],
    ["it'sx", ["it's", 'x']],
    ["o'clock", ['o', "'clock"]],
    ["rock'n'roll", ['rock', "'n", "'roll"]],
    ["dogs'", ['dogs', "'"]],
    ["a''s", ['a', "''", 's']],
    ['HTTPServer', ['HTTPServer']],
    ['HTTPServerError', ['HTTPServer', 'Error']],
    ['iPhone OK', ['i', 'Phone', ' OK']],
    ['.Hello', ['.Hello']],
    ['..Hello', ['..', 'Hello']],
    ['(hello', ['(hello']],
    ['\thello \vx \fy', ['\thello', ' ', '\vx', ' ', '\fy']],
    [' \n\n  x', [' \n\n', ' ', ' x']],
    ['a   b', ['a', '  ', ' b']],
    ['x\t.y', ['x', '\t', '.y']],
    ['a \t.', ['a', ' ', '\t', '.']],
    ['a .', ['a', ' .']],
    ['12345', ['123', '45']],
    ['a12 42x', ['a', '12', ' ', '42', 'x']],
    ['a//b\n/', ['a', '//', 'b', '\n', '/']],
    ['end.\n/x', ['end', '.\n/', 'x']],
    ['hi   ', ['hi', '   ']],
    ['hi \t', ['hi', ' \t']],
    ['\r\n', ['\r\n']],
    ['a\r\nb', ['a', '\r\n', 'b']],
    ['a  \n', ['a', '  \n']],
    ['\n\n  ', ['\n\n', '  ']],
    ['x \n \n y', ['x', ' \n \n', ' y']],
    // 0x1f is not \s in JavaScript (it is in Python): an other char, so it opens the letter piece.
    ['x\u001fy', ['x', '\u001fy']],
  ]

  it.each(cases)('cuts %j as the pattern does', (text, expected) => {
    expect(scannedPieces(text)).toEqual(expected)
    expect(text.match(PATTERN) ?? []).toEqual(expected)
  })

  it('gives up (null) at a char >= 0x80, even one JavaScript’s \\s takes (no-break space) or one after a letter', () => {
    expect(o200kAsciiPieces('café')).toBeNull()
    expect(o200kAsciiPieces('a\u00a0b')).toBeNull()
    expect(o200kAsciiPieces('plain text, then \u2014')).toBeNull()
    expect(o200kAsciiPieces("it'\u017f")).toBeNull()
  })

  it('cuts 20,000 random ASCII strings as text.match(pattern) does', () => {
    const random = mulberry32(20_260_417)
    // Weighted towards the chars the rules turn on: both cases (and the contraction letters), digits, every
    // whitespace, the apostrophe, "/", punctuation, and control chars that are not \s.
    const alphabet = [
      ...'aezAEZ',
      ...'sSdDmMtTlLvVeErR',
      ...'0123456789',
      ...'     ',
      '\t',
      '\t',
      '\n',
      '\n',
      '\n',
      '\r',
      '\r',
      '\v',
      '\f',
      "'",
      "'",
      "'",
      '.',
      '.',
      '/',
      '/',
      ',',
      '-',
      '(',
      '#',
      '*',
      '`',
      '\u0000',
      '\u001f',
      '\u007f',
    ]
    let pieces = 0
    for (let n = 0; n < 20_000; n++) {
      // Mostly short strings (every rule meets the others), every 50th up to 600 chars (the buffers grow).
      const length = Math.floor(random() * (n % 50 === 0 ? 600 : 24))
      let text = ''
      for (let c = 0; c < length; c++) text += alphabet[Math.floor(random() * alphabet.length)]
      const expected = text.match(PATTERN) ?? []
      const scanned = scannedPieces(text)
      if (JSON.stringify(scanned) !== JSON.stringify(expected)) expect({ text, scanned }).toEqual({ text, scanned: expected })
      pieces += expected.length
    }
    expect(pieces).toBeGreaterThan(100_000)
  })
})

describe('countTextTokens over the ASCII scan', () => {
  const markdown = [
    "## Rotating the signing keys\n\nThe service's signing keys rotate every 90 days. If a key hasn't rotated within 7 days of its expiry, the on-call engineer gets paged (see `ops/keys.md`).",
    '- Step 1: run `kubectl get pods -n auth --selector=app=signer`\n- Step 2: check https://status.example.com/v2/keys?region=eu-west-1\n- Step 3: wait 30s, then retry.',
    '| Setting | Default | Notes |\n|---|---|---|\n| max_retries | 3 | Doubles the wait each time. |\n| timeout_ms | 12500 | 0 disables it. |',
    "```ts\nconst total = items.reduce((sum, item) => sum + item.price * 1.2, 0)\n```\r\nWe'll ship it; they're DONE.\tTabs,   spaces   and trailing spaces   ",
    'HTTPServerError: ECONNREFUSED 127.0.0.1:8080 -- retried 1234567 times // giving up.\n\n\n',
  ]

  it.each(markdown)('equals gpt-tokenizer’s countTokens on %j', (text) => {
    expect(o200kAsciiPieces(text)).not.toBeNull()
    expect(countTextTokens(text)).toBe(countTokens(text))
  })

  it('equals countTokens on a text with non-ASCII chars (the pattern cuts it)', () => {
    const text = 'Le café naïve — résumé: 10 € per user; Straße; 東京 2024; emoji 🚀 done.'
    expect(o200kAsciiPieces(text)).toBeNull()
    expect(countTextTokens(text)).toBe(countTokens(text))
  })

  it('remembers every piece it counts, for the cache file', () => {
    const text = 'Qzvb ledgers reconcile nightly: qzvbrecon\'s 3 retries, then "QZVBALERT".'
    countTextTokens(text)
    const pieces = text.match(PATTERN) ?? []
    expect(pieces).toHaveLength(14)
    for (const piece of pieces) expect([piece, pieceTokenCounts().get(piece)]).toEqual([piece, countTokens(piece)])
  })
})

describe('releaseVocabulary', () => {
  const vocabularyLoaded = () =>
    Object.keys(createRequire(import.meta.url).cache).some((file) =>
      /gpt-tokenizer[\\/]cjs[\\/]encoding[\\/]o200k_base/.test(file),
    )

  /**
   * A word no count can be known for yet: in a shared module graph an evaluation of the repository after this test
   * saves every piece this process counted to the repository's token-count cache, which a later run's evaluation
   * reads back before this test (letters only, so it is one piece, not digit groups others counted).
   */
  const unseen = (tag: string) =>
    tag + [...`${Date.now()}${process.pid}`].map((digit) => String.fromCharCode(97 + Number(digit))).join('')

  it('lets the vocabulary go; the next new piece loads it again and is counted the same', () => {
    // From a known state: in a shared module graph another file's copy of this module may have let the vocabulary go
    // while this one still held it.
    releaseVocabulary()
    const first = `Frobnicate the ${unseen('wumpus')} quietly.`
    expect(countTextTokens(first)).toBe(countTokens(first))
    expect(vocabularyLoaded()).toBe(true)
    releaseVocabulary()
    expect(vocabularyLoaded()).toBe(false)
    const text = `Xyzzyfrob ${unseen('quuxbaz')} ledgers: 42 retries, then "XYZZYALERT".`
    expect(countTextTokens(text)).toBe(countTokens(text))
    expect(vocabularyLoaded()).toBe(true)
  })
})
