import { lineColumnOf } from './line-column.ts'

/** Offsets of a JSON text's values, to name lines (JSON.parse gives none) and edit in place; for text JSON.parse accepted. */
export interface Span {
  kind: 'object' | 'array' | 'string' | 'literal'
  /** Offset of the first character. */
  start: number
  /** Offset just past the last character. */
  end: number
  /** Object members, in order: key text (decoded) and the value's span. */
  members: { key: string; keyStart: number; value: Span }[]
  /** Array elements, in order. */
  elements: Span[]
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && /\s/.test(text[at]!)) at++
  return at
}

function stringEnd(text: string, at: number): number {
  // `at` is the opening quote; returns the offset past the closing quote.
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === '\\') i++
    else if (text[i] === '"') return i + 1
  }
  return text.length
}

function parseValue(text: string, from: number): Span {
  const start = skipSpace(text, from)
  const char = text[start]
  if (char === '"') return { kind: 'string', start, end: stringEnd(text, start), members: [], elements: [] }
  if (char === '{' || char === '[') {
    const span: Span = { kind: char === '{' ? 'object' : 'array', start, end: start, members: [], elements: [] }
    const close = char === '{' ? '}' : ']'
    let at = skipSpace(text, start + 1)
    while (at < text.length && text[at] !== close) {
      if (span.kind === 'object') {
        const keyEnd = stringEnd(text, at)
        const key = JSON.parse(text.slice(at, keyEnd)) as string
        const colon = skipSpace(text, keyEnd)
        const value = parseValue(text, colon + 1)
        span.members.push({ key, keyStart: at, value })
        at = skipSpace(text, value.end)
      } else {
        const value = parseValue(text, at)
        span.elements.push(value)
        at = skipSpace(text, value.end)
      }
      if (text[at] === ',') at = skipSpace(text, at + 1)
    }
    span.end = at + 1
    return span
  }
  let end = start
  while (end < text.length && !/[\s,\]}]/.test(text[end]!)) end++
  return { kind: 'literal', start, end, members: [], elements: [] }
}

/** The spans of a JSON text's top-level value. */
export function jsonSpans(text: string): Span {
  return parseValue(text, 0)
}

/** Line (from 1) of an offset. */
export function lineAt(text: string, offset: number): number {
  return lineColumnOf(text, offset).line
}
