import { lineColumnOf } from './line-column.ts'

/** Where a JSON text stops being JSON, and what the writer most likely did. */
export interface JsonSyntaxError {
  /** Offset (UTF-16 code units) of the character to look at. */
  offset: number
  problem: string
}

/** Unwinds the scanner at the first mistake; findJsonSyntaxError catches it and returns its error. */
class Stop extends Error {
  constructor(readonly error: JsonSyntaxError) {
    super(error.problem)
  }
}

/** A character as a message shows it: printable ones quoted, others (spaces, controls) as U+XXXX. */
function shown(text: string, at: number): string {
  if (at >= text.length) return 'the end of the text'
  const char = String.fromCodePoint(text.codePointAt(at)!)
  if (char === '"') return `'"'`
  return /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(char)
    ? `"${char}"`
    : `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
}

/**
 * The first syntax error of a JSON text (RFC 8259), or undefined when it is valid JSON.
 *
 * JSON.parse names no position for some errors (V8: `Unexpected token ''', ..."b": 'x'..." is not
 * valid JSON`) and a position past the mistake for others, so this scanner finds the place itself and
 * names the usual mistakes: single quotes, NaN and Infinity, comments, trailing and missing commas,
 * unquoted names, unterminated strings. The offset is where to look: the opening quote of an
 * unterminated string, the trailing comma itself, the token after a missing comma.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  let at = 0
  const stop = (offset: number, problem: string): never => {
    throw new Stop({ offset, problem })
  }
  const where = (offset: number) => {
    const { line, column } = lineColumnOf(text, offset)
    return `${line}:${column}`
  }

  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at]!)) at++
    if (text.startsWith('//', at) || text.startsWith('/*', at)) stop(at, 'comments are not allowed in JSON; remove it')
  }

  const string = () => {
    const start = at
    for (let i = at + 1; i < text.length; i++) {
      const char = text[i]!
      if (char === '"') {
        at = i + 1
        return
      }
      if (char === '\n' || char === '\r') stop(start, 'unterminated string: the line ends before its closing double quote')
      if (char < ' ') stop(i, `control character ${shown(text, i)} inside a string; write it as an escape such as \\t`)
      if (char === '\\') {
        const escaped = text[i + 1]
        if (escaped === 'u') {
          if (!/^[0-9A-Fa-f]{4}$/.test(text.slice(i + 2, i + 6))) stop(i, 'invalid \\u escape: expected 4 hex digits')
          i += 5
        } else if (escaped !== undefined && '"\\/bfnrt'.includes(escaped)) i++
        else if (escaped !== undefined && escaped !== '\n' && escaped !== '\r')
          stop(i, `invalid escape \\${escaped}; JSON escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX`)
      }
    }
    stop(start, 'unterminated string: the text ends before its closing double quote')
  }

  const number = () => {
    const start = at
    if (text[at] === '-') at++
    if (text.startsWith('Infinity', at)) stop(start, '-Infinity is not a JSON value; write a number or null')
    if (text[at] === '0') {
      at++
      if (/[0-9]/.test(text[at] ?? '')) stop(start, 'a number cannot start with 0 unless it is 0 (write 7, not 07)')
    } else if (/[1-9]/.test(text[at] ?? '')) {
      while (/[0-9]/.test(text[at] ?? '')) at++
    } else stop(start, 'a "-" must be followed by digits')
    if (text[at] === '.') {
      at++
      if (!/[0-9]/.test(text[at] ?? '')) stop(start, 'a decimal point must be followed by digits (write 1.0, not 1.)')
      while (/[0-9]/.test(text[at] ?? '')) at++
    }
    if (text[at] === 'e' || text[at] === 'E') {
      at++
      if (text[at] === '+' || text[at] === '-') at++
      if (!/[0-9]/.test(text[at] ?? '')) stop(start, 'an exponent must have digits (write 1e5)')
      while (/[0-9]/.test(text[at] ?? '')) at++
    }
  }

  const word = () => {
    const found = /^[A-Za-z_$][\w$]*/.exec(text.slice(at, at + 64))?.[0] ?? ''
    if (found === 'true' || found === 'false' || found === 'null') {
      at += found.length
      return
    }
    if (found === 'NaN' || found === 'Infinity') stop(at, `${found} is not a JSON value; write a number or null`)
    if (found === 'undefined') stop(at, 'undefined is not a JSON value; write null or leave the field out')
    stop(at, `unexpected word "${found}": strings need double quotes, and the only words are true, false and null (lower case)`)
  }

  const container = (close: '}' | ']') => {
    const open = at
    const kind = close === '}' ? 'object' : 'array'
    at++
    space()
    if (text[at] === close) {
      at++
      return
    }
    for (;;) {
      if (close === '}') {
        space()
        const char = text[at]
        if (char === '"') string()
        else if (char === "'") stop(at, 'single-quoted property name; JSON names use double quotes')
        else if (char === undefined) stop(at, `unexpected end of the text: the object opened at ${where(open)} is not closed`)
        else if (/[A-Za-z_$]/.test(char)) stop(at, 'property name without double quotes; write "name"')
        else stop(at, `unexpected ${shown(text, at)}; expected a property name in double quotes`)
        space()
        if (text[at] !== ':') stop(at, `expected ":" after the property name, found ${shown(text, at)}`)
        at++
      }
      value(close === '}' ? 'a value after ":"' : 'a value')
      const valueEnd = at
      space()
      if (text[at] === close) {
        at++
        return
      }
      if (text[at] === ',') {
        const comma = at
        at++
        space()
        if (text[at] === close) stop(comma, `trailing comma before "${close}"; remove it`)
        continue
      }
      if (at >= text.length) stop(at, `unexpected end of the text: the ${kind} opened at ${where(open)} is not closed`)
      stop(
        at,
        `expected "," or "${close}" after the value that ends at ${where(valueEnd - 1)}, found ${shown(text, at)} (missing comma?)`,
      )
    }
  }

  const value = (expected: string) => {
    space()
    const char = text[at]
    if (char === undefined) stop(at, `unexpected end of the text; expected ${expected}`)
    else if (char === '{') container('}')
    else if (char === '[') container(']')
    else if (char === '"') string()
    else if (char === "'") stop(at, 'single-quoted string; JSON strings use double quotes')
    else if (char === '-' || /[0-9]/.test(char)) number()
    else if (/[A-Za-z_$]/.test(char)) word()
    else stop(at, `unexpected ${shown(text, at)}; expected ${expected}`)
  }

  try {
    space()
    if (at >= text.length) return { offset: at, problem: 'the text is empty; expected a JSON value' }
    value('a JSON value')
    space()
    if (at < text.length) stop(at, `unexpected ${shown(text, at)} after the end of the JSON value`)
    return undefined
  } catch (thrown) {
    if (thrown instanceof Stop) return thrown.error
    throw thrown
  }
}
