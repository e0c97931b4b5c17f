/** Whitespace as C `isspace` sees it in the C locale: space, \t, \n, \v, \f, \r. */
function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13)
}

/**
 * Splits a line into its whitespace-separated fields (any run of spaces/tabs separates; leading and
 * trailing whitespace is ignored). A hand-written scanner rather than `trim().split(/\s+/)` (as fast;
 * docs/scaling.md) because JavaScript's `\s` also matches bytes C does not treat as
 * whitespace: with latin1-decoded lines, a UTF-8 id containing byte 0xA0 (e.g. "à" = C3 A0) would be
 * split in two.
 */
export function splitFields(line: string): string[] {
  const fields: string[] = []
  const length = line.length
  let i = 0
  while (i < length) {
    while (i < length && isSpace(line.charCodeAt(i))) i++
    if (i >= length) break
    const start = i
    while (i < length && !isSpace(line.charCodeAt(i))) i++
    fields.push(line.slice(start, i))
  }
  return fields
}
