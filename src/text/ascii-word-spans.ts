import { FNV_OFFSET as OFFSET, FNV_PRIME as PRIME, fitSpans, reusedSpans, type TextSpans } from './text-spans.ts'

// Read once into this module: where it is loaded through jiti (the evaluation's thread in this repository)
// an imported binding is a getter call at every use, and the scan uses these per character.
const FNV_OFFSET = OFFSET
const FNV_PRIME = PRIME

/** 1 for the ASCII characters [\p{L}\p{N}] takes in lower-cased text (a-z, 0-9): ASCII has no other letters or digits. */
const WORD_CHAR = new Uint8Array(128)
for (const c of 'abcdefghijklmnopqrstuvwxyz0123456789') WORD_CHAR[c.charCodeAt(0)] = 1
const PERIOD = 0x2e
const APOSTROPHE = 0x27
const spans = reusedSpans()

/**
 * The matches of /[\p{L}\p{N}]+(?:[.'][\p{L}\p{N}]+)*\/gu in a lower-cased ASCII text, found by char code: the shared
 * spans, valid until the next call, or null at the first character >= 0x80 (the regex decides there).
 */
export function asciiWordSpans(lower: string): TextSpans | null {
  const n = lower.length
  // Words are separated by at least one character: at most ceil(n / 2) of them.
  const most = (n + 1) >> 1
  fitSpans(spans, most)
  const { starts, ends, hashes } = spans
  let count = 0
  let i = 0
  while (i < n) {
    let code = lower.charCodeAt(i)
    if (code >= 0x80) return null
    if (WORD_CHAR[code] === 0) {
      i++
      continue
    }
    const start = i
    let hash = Math.imul(FNV_OFFSET ^ code, FNV_PRIME)
    for (;;) {
      while (++i < n && (code = lower.charCodeAt(i)) < 0x80 && WORD_CHAR[code] === 1) hash = Math.imul(hash ^ code, FNV_PRIME)
      if (i === n) break
      if (code >= 0x80) return null
      if ((code !== PERIOD && code !== APOSTROPHE) || i + 1 === n) break
      const after = lower.charCodeAt(i + 1)
      if (after >= 0x80) return null
      if (WORD_CHAR[after] === 0) break
      hash = Math.imul(Math.imul(hash ^ code, FNV_PRIME) ^ after, FNV_PRIME)
      i++
    }
    starts[count] = start
    ends[count] = i
    hashes[count] = hash
    count++
  }
  spans.count = count
  return spans
}
