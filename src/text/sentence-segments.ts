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

/** The classes SB8 looks past for a lower-case letter: all but letters and terminators. */
const SB8_SKIPS = [OTHER, SP, NUMERIC, SCONTINUE, CLOSE].reduce((skips, c) => ((skips[c] = 1), skips), new Uint8Array(9))

/** The class of the character at i (printable ASCII); not a closure, which tsx (keepNames) wraps in a __name call each time. */
function classAt(text: string, i: number): number {
  return CLASS[text.charCodeAt(i)]!
}

/** Whether the text is printable ASCII only: the characters whose classes CLASS holds. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/

/**
 * The text cut into untrimmed sentences exactly as `Intl.Segmenter('en', { granularity: 'sentence' })` cuts it. The
 * segmenter is slow per sentence, so printable ASCII text takes UAX #29's rules SB6-SB11 here; any other, the segmenter.
 */
export function sentenceSegments(text: string): string[] {
  if (!PRINTABLE_ASCII.test(text)) return Array.from(segmenter.segment(text), (s) => s.segment)
  const n = text.length
  const segments: string[] = []
  let start = 0
  for (let t = 0; t < n; t++) {
    const term = classAt(text, t)
    if (term !== ATERM && term !== STERM) continue
    // A sentence can end only after a terminator, its closing punctuation and spaces (SATerm Close* Sp*):
    // inside that run SB9 and SB10 hold it together, so its end `i` is the one place to decide.
    let i = t + 1
    while (i < n && classAt(text, i) === CLOSE) i++
    while (i < n && classAt(text, i) === SP) i++
    if (i === n) break
    const bare = i === t + 1
    const next = classAt(text, i)
    // SB6 ("3.5"), SB7 ("U.S")
    if (term === ATERM && bare && next === NUMERIC) continue
    if (term === ATERM && bare && next === UPPER && t > 0 && (classAt(text, t - 1) === UPPER || classAt(text, t - 1) === LOWER))
      continue
    if (term === ATERM) {
      // SB8: a lower-case word after anything but letters and terminators continues the sentence.
      let j = i
      while (j < n && SB8_SKIPS[classAt(text, j)]) j++
      if (j < n && classAt(text, j) === LOWER) continue
    }
    // SB8a
    if (next === SCONTINUE || next === ATERM || next === STERM) continue
    // SB11
    segments.push(text.slice(start, i))
    start = i
    t = i - 1
  }
  if (n > 0) segments.push(text.slice(start))
  return segments
}
