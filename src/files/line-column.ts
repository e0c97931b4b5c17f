/**
 * Line and column (both from 1) of a character offset in a text, as editors show them: lines split at
 * `\n` (a `\r` before it belongs to the line it ends), columns counted in UTF-16 code units like
 * VS Code and tsc. An offset past the end is the end of the text.
 */
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
