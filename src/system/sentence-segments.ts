const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' })

/** Sentence_Break classes (Unicode UAX #29) of the characters the fast path takes. */
const OTHER = 0
const SP = 1
const LOWER = 2
const UPPER = 3
const NUMERIC = 4
const ATERM = 5
const STERM = 6
const SCONTINUE = 7
const CLOSE = 8

/** The class of each printable ASCII character (0x20-0x7e); anything else leaves the fast path. */
const CLASS = new Uint8Array(128)
for (let code = 0x61; code <= 0x7a; code++) CLASS[code] = LOWER
for (let code = 0x41; code <= 0x5a; code++) CLASS[code] = UPPER
for (let code = 0x30; code <= 0x39; code++) CLASS[code] = NUMERIC
CLASS[0x20] = SP
CLASS[0x2e] = ATERM
for (const c of '!?') CLASS[c.charCodeAt(0)] = STERM
for (const c of ',-:;') CLASS[c.charCodeAt(0)] = SCONTINUE
for (const c of `"'()[]{}`) CLASS[c.charCodeAt(0)] = CLOSE

/** Whether the text is printable ASCII only: the characters whose classes CLASS holds. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/

/**
 * The text cut into sentences exactly as `Intl.Segmenter('en', { granularity: 'sentence' })` cuts it
 * (each segment untrimmed, in order). The segmenter costs microseconds per sentence, and the chunker and
 * the answerer split every paragraph of a corpus; for printable ASCII text the Unicode sentence-break
 * rules SB6-SB11 (UAX #29; no separators, extenders or other letters occur in it) are applied here instead, any other text goes to the segmenter.
 */
export function sentenceSegments(text: string): string[] {
  if (!PRINTABLE_ASCII.test(text)) return Array.from(segmenter.segment(text), (s) => s.segment)
  const n = text.length
  const cls = (i: number) => CLASS[text.charCodeAt(i)]!
  const segments: string[] = []
  let start = 0
  /** Where SB8's look-ahead from an earlier position stopped: every character before it is one SB8 skips. */
  let skipped = 0
  for (let i = 1; i < n; i++) {
    // Only after a terminator, its closing punctuation and spaces (SATerm Close* Sp*) can a sentence end.
    let t = i - 1
    let spaces = 0
    while (t >= start && cls(t) === SP) {
      t--
      spaces++
    }
    let closes = 0
    while (t >= start && cls(t) === CLOSE) {
      t--
      closes++
    }
    if (t < start) continue
    const term = cls(t)
    if (term !== ATERM && term !== STERM) continue
    const next = cls(i)
    if (term === ATERM) {
      // SB6 ("3.5"), SB7 ("U.S")
      if (spaces === 0 && closes === 0 && next === NUMERIC) continue
      if (spaces === 0 && closes === 0 && next === UPPER && t > start && (cls(t - 1) === UPPER || cls(t - 1) === LOWER)) continue
      // SB8: a lower-case word after anything but letters and terminators continues the sentence.
      let j = Math.max(i, skipped)
      while (j < n && (cls(j) === OTHER || cls(j) === SP || cls(j) === NUMERIC || cls(j) === SCONTINUE || cls(j) === CLOSE)) j++
      skipped = j
      if (j < n && cls(j) === LOWER) continue
    }
    // SB8a
    if (next === SCONTINUE || next === ATERM || next === STERM) continue
    // SB9, SB10
    if (spaces === 0 && next === CLOSE) continue
    if (next === SP) continue
    // SB11
    segments.push(text.slice(start, i))
    start = i
  }
  if (n > 0) segments.push(text.slice(start))
  return segments
}
