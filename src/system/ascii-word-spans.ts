/** 1 for the ASCII characters [\p{L}\p{N}] takes in lower-cased text (a-z, 0-9): ASCII has no other letters or digits. */
const WORD_CHAR = new Uint8Array(128)
for (const c of 'abcdefghijklmnopqrstuvwxyz0123456789') WORD_CHAR[c.charCodeAt(0)] = 1
const PERIOD = 0x2e
const APOSTROPHE = 0x27
const FNV_OFFSET = 0x811c9dc5
const FNV_PRIME = 0x01000193

/** The FNV-1a hash (32-bit) of text.slice(start, end), as asciiWordSpans computes it during its scan. */
export function fnv1a(text: string, start: number, end: number): number {
  let hash = FNV_OFFSET
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME)
  return hash
}

/** Where the words of a text are: word k is text.slice(starts[k], ends[k]), hashes[k] its FNV-1a hash (32-bit). */
export interface WordSpans {
  count: number
  starts: Int32Array
  ends: Int32Array
  hashes: Int32Array
}

/** One set of buffers for every call: the callers read the spans before scanning again, and a scan allocates nothing. */
const spans: WordSpans = { count: 0, starts: new Int32Array(256), ends: new Int32Array(256), hashes: new Int32Array(256) }

/**
 * The matches of /[\p{L}\p{N}]+(?:[.'][\p{L}\p{N}]+)*\/gu in a lower-cased ASCII text, found by char code:
 * a run of a-z0-9, extended while a "." or "'" is followed by another run (the regex is greedy and nothing
 * follows the group, so its match is this longest one). Returns null at the first character >= 0x80 (the
 * regex's Unicode classes decide there), else the shared spans, valid until the next call.
 */
export function asciiWordSpans(lower: string): WordSpans | null {
  const n = lower.length
  // Words are separated by at least one character: at most ceil(n / 2) of them.
  const most = (n + 1) >> 1
  if (spans.starts.length < most) {
    spans.starts = new Int32Array(most)
    spans.ends = new Int32Array(most)
    spans.hashes = new Int32Array(most)
  }
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
