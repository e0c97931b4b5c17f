/**
 * o200k's pre-tokenizer over ASCII text, by char code. Its pattern (gpt-tokenizer's
 * O200K_TOKEN_SPLIT_REGEX, flags "gu"; alternatives tried in order at each position, the first that
 * matches wins):
 *
 *   1. [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?
 *   2. [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:'(?:...the same...))?
 *   3. \p{N}{1,3}
 *   4.  ?[^\s\p{L}\p{N}]+[\r\n/]*
 *   5. \s*[\r\n]+
 *   6. \s+(?!\S)
 *   7. \s+
 *
 * In ASCII every char is a letter, a digit, blank (\t \v \f space), a newline (\r \n) or other (JavaScript's \s
 * does not take 0x1c-0x1f, as Python's does); 1-2 take letters, 3 digits, 4 other chars, 5-7 whitespace.
 */

import { FNV_OFFSET as OFFSET, FNV_PRIME as PRIME, fitSpans, fnv1a as hashOf, reusedSpans, type TextSpans } from './text-spans.ts'

// Read once into this module: through jiti an imported binding is a getter call at every use (docs/scaling.md,
// "Large golden sets", "A trap of this repository's TypeScript loading").
const FNV_OFFSET = OFFSET
const FNV_PRIME = PRIME
const fnv1a = hashOf

const UPPER = 1
const LOWER = 2
const DIGIT = 3
/** \t \v \f and space: whitespace that may open a letter piece (1-2's optional first char excludes only \r \n). */
const BLANK = 4
/** \r \n */
const NEWLINE = 5
/** Neither letter, digit nor whitespace: [^\s\p{L}\p{N}], which includes "/" and "'". */
const OTHER = 6

const CLASS = new Uint8Array(128).fill(OTHER)
for (let c = 0x41; c <= 0x5a; c++) CLASS[c] = UPPER
for (let c = 0x61; c <= 0x7a; c++) CLASS[c] = LOWER
for (let c = 0x30; c <= 0x39; c++) CLASS[c] = DIGIT
for (const c of [0x09, 0x0b, 0x0c, 0x20]) CLASS[c] = BLANK
for (const c of [0x0a, 0x0d]) CLASS[c] = NEWLINE

const SPACE = 0x20
const APOSTROPHE = 0x27
const spans = reusedSpans()

/**
 * The pieces `text.match(O200K_TOKEN_SPLIT_REGEX)` cuts an ASCII text into: the shared spans, valid until the next
 * call, or null at the first char >= 0x80 (the caller takes the regex). One loop hashing as it reads, being faster
 * (docs/scaling.md, "Why the code is shaped as it is"); every read bounds-checked, as NaN past the end deoptimises.
 */
export function o200kAsciiPieces(text: string): TextSpans | null {
  const n = text.length
  fitSpans(spans, n)
  const { starts, ends, hashes } = spans
  let count = 0
  let i = 0
  while (i < n) {
    const start = i
    let code = text.charCodeAt(i)
    if (code >= 0x80) return null
    let charClass = CLASS[code]!
    let hash = Math.imul(FNV_OFFSET ^ code, FNV_PRIME)
    // 1-2's optional first char: any blank or other char, taken when a letter follows (".Hello", "(hello",
    // "\thello" are one piece each). The pattern tries it first, and without it 1-2 cannot start on a non-letter.
    if ((charClass === BLANK || charClass === OTHER) && i + 1 < n) {
      const next = text.charCodeAt(i + 1)
      if (next < 0x80 && (CLASS[next] === UPPER || CLASS[next] === LOWER)) {
        i++
        code = next
        charClass = CLASS[next]!
        hash = Math.imul(hash ^ code, FNV_PRIME)
      }
    }
    i++
    if (charClass === UPPER || charClass === LOWER) {
      // 1-2 are one rule in ASCII: capitals, then lowercase letters ("HTTPServerError" is two pieces), then an
      // optional contraction suffix; nothing follows it, so nothing backtracks into the runs.
      if (charClass === UPPER) {
        while (i < n && (code = text.charCodeAt(i)) < 0x80 && CLASS[code] === UPPER) {
          hash = Math.imul(hash ^ code, FNV_PRIME)
          i++
        }
      }
      while (i < n && (code = text.charCodeAt(i)) < 0x80 && CLASS[code] === LOWER) {
        hash = Math.imul(hash ^ code, FNV_PRIME)
        i++
      }
      if (i + 1 < n && text.charCodeAt(i) === APOSTROPHE) {
        for (const end = contractionEnd(text, i); i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME)
      }
    } else if (charClass === DIGIT) {
      // 3: a run of digits cut every three ("12345" is "123" then "45"); no char ever opens it.
      const most = Math.min(start + 3, n)
      while (i < most && (code = text.charCodeAt(i)) >= 0x30 && code <= 0x39) {
        hash = Math.imul(hash ^ code, FNV_PRIME)
        i++
      }
    } else if (charClass === OTHER || (code === SPACE && i < n && (code = text.charCodeAt(i)) < 0x80 && CLASS[code] === OTHER)) {
      // 4, from an other char or a space (not "\t": "\t." is two pieces) before one: the run of other chars, then
      // any \r, \n and "/" (".\n/" is one piece, "\n/" two).
      if (charClass !== OTHER) {
        hash = Math.imul(hash ^ code, FNV_PRIME)
        i++
      }
      while (i < n && (code = text.charCodeAt(i)) < 0x80 && CLASS[code] === OTHER) {
        hash = Math.imul(hash ^ code, FNV_PRIME)
        i++
      }
      while (i < n && ((code = text.charCodeAt(i)) === 0x0a || code === 0x0d || code === 0x2f)) {
        hash = Math.imul(hash ^ code, FNV_PRIME)
        i++
      }
    } else {
      // 5-7 over the whitespace run. 5 ends just after the run's last newline (" \n\n  x" is " \n\n", " ", " x");
      // else 6 leaves the last blank before a non-space to open the next piece, and 7 takes a lone blank.
      let afterNewline = charClass === NEWLINE ? i : -1
      while (i < n && (code = text.charCodeAt(i)) < 0x80 && ((charClass = CLASS[code]!) === BLANK || charClass === NEWLINE)) {
        i++
        if (charClass === NEWLINE) afterNewline = i
      }
      if (afterNewline !== -1) i = afterNewline
      else if (i < n && i - start > 1) i--
      // The piece's end is known only now: hash it afresh.
      hash = fnv1a(text, start, i)
    }
    starts[count] = start
    ends[count] = i
    hashes[count] = hash
    count++
  }
  spans.count = count
  return spans
}

/** Where the contraction suffix ('s 'd 'm 't 'll 've 're, any case) at `apostrophe` ends; `apostrophe` when none. */
function contractionEnd(text: string, apostrophe: number): number {
  const first = text.charCodeAt(apostrophe + 1) | 0x20 // lower-cased
  if (first === 0x73 || first === 0x64 || first === 0x6d || first === 0x74) return apostrophe + 2 // s d m t
  if (apostrophe + 2 === text.length) return apostrophe
  const second = text.charCodeAt(apostrophe + 2) | 0x20
  if ((first === 0x6c && second === 0x6c) || (first === 0x76 && second === 0x65) || (first === 0x72 && second === 0x65))
    return apostrophe + 3 // ll ve re
  return apostrophe
}
