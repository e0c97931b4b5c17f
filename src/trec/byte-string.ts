/**
 * qrels and run files are decoded as latin1, one char per byte, so `<` / `>` compare bytes like C `strcmp`, as
 * trec_eval orders qids and breaks score ties, even for non-ASCII ids.
 */
export const FILE_ENCODING = 'latin1' satisfies BufferEncoding

/** Back to the file's original bytes (for writing report text). */
export function byteStringToBuffer(text: string): Buffer {
  return Buffer.from(text, FILE_ENCODING)
}

/** Human-readable form of a byte-string id for error messages (UTF-8 ids display correctly). */
export function displayId(id: string): string {
  return JSON.stringify(byteStringToBuffer(id).toString('utf8'))
}

/** strcmp-style comparison of two byte strings: negative, 0 or positive. */
export function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
