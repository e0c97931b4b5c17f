/** Line and column (from 1) of an offset as editors show them: a `\r` belongs to the line it ends; columns in UTF-16 units. */
export function lineColumnOf(text: string, offset: number): { line: number; column: number } {
  const at = Math.max(0, Math.min(offset, text.length))
  let line = 1
  let lineStart = 0
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) {
    line++
    lineStart = i + 1
  }
  return { line, column: at - lineStart + 1 }
}
