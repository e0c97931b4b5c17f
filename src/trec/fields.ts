/** Whitespace as C `isspace` sees it in the C locale: space, \t, \n, \v, \f, \r. */
function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13)
}

/**
 * Whitespace-separated fields (spaces and tabs). Not `trim().split(/\s+/)`: JavaScript's `\s` matches bytes C
 * does not, so a latin1-decoded UTF-8 id with byte 0xA0 ("à" = C3 A0) would split (docs/scaling.md).
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
