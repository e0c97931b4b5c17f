/** FNV-1a (32-bit, over UTF-16 code units), which a scanner computes as it reads: hash = imul(hash ^ code, FNV_PRIME) from FNV_OFFSET. */
export const FNV_OFFSET = 0x811c9dc5
export const FNV_PRIME = 0x01000193

/** The FNV-1a hash of text.slice(start, end), as the scanners compute it while they read. */
export function fnv1a(text: string, start: number, end: number): number {
  let hash = FNV_OFFSET
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME)
  return hash
}

/** Where a scanner found the pieces of a text: piece k is text.slice(starts[k], ends[k]), hashes[k] its fnv1a (a SpanTable's key). */
export interface TextSpans {
  count: number
  starts: Int32Array
  ends: Int32Array
  hashes: Int32Array
}

/** A scanner's buffers, reused by every call (read before the next scan), so a scan allocates nothing once they are large enough. */
export function reusedSpans(): TextSpans {
  return { count: 0, starts: new Int32Array(256), ends: new Int32Array(256), hashes: new Int32Array(256) }
}

/** Grows the buffers to hold `most` spans (a text of n chars has at most n pieces). */
export function fitSpans(spans: TextSpans, most: number): void {
  if (spans.starts.length >= most) return
  spans.starts = new Int32Array(most)
  spans.ends = new Int32Array(most)
  spans.hashes = new Int32Array(most)
}
