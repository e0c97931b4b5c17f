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
 * The first syntax error of a JSON text, or undefined when it is valid. V8's JSON.parse names no position for some
 * errors and one past the mistake for others, so this scanner finds the place and names the usual mistakes.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  return new JsonScanner(text).firstError()
}

/** Ends the scan with the error at offset. */
function stop(offset: number, problem: string): never {
  throw new Stop({ offset, problem })
}

/** A recursive-descent scan of one JSON text; stop() unwinds it at the first mistake. */
class JsonScanner {
  private at = 0

  constructor(private readonly text: string) {}

  firstError(): JsonSyntaxError | undefined {
    try {
      this.space()
      if (this.at >= this.text.length) return { offset: this.at, problem: 'the text is empty; expected a JSON value' }
      this.value('a JSON value')
      this.space()
      if (this.at < this.text.length) stop(this.at, `unexpected ${shown(this.text, this.at)} after the end of the JSON value`)
      return undefined
    } catch (thrown) {
      if (thrown instanceof Stop) return thrown.error
      throw thrown
    }
  }

  private where(offset: number): string {
    const { line, column } = lineColumnOf(this.text, offset)
    return `${line}:${column}`
  }

  private space(): void {
    while (this.at < this.text.length && ' \t\n\r'.includes(this.text[this.at]!)) this.at++
    if (this.text.startsWith('//', this.at) || this.text.startsWith('/*', this.at))
      stop(this.at, 'comments are not allowed in JSON; remove it')
  }

  private string(): void {
    const start = this.at
    for (let i = this.at + 1; i < this.text.length; i++) {
      const char = this.text[i]!
      if (char === '"') {
        this.at = i + 1
        return
      }
      if (char === '\n' || char === '\r') stop(start, 'unterminated string: the line ends before its closing double quote')
      if (char < ' ') stop(i, `control character ${shown(this.text, i)} inside a string; write it as an escape such as \\t`)
      if (char === '\\') {
        const escaped = this.text[i + 1]
        if (escaped === 'u') {
          if (!/^[0-9A-Fa-f]{4}$/.test(this.text.slice(i + 2, i + 6))) stop(i, 'invalid \\u escape: expected 4 hex digits')
          i += 5
        } else if (escaped !== undefined && '"\\/bfnrt'.includes(escaped)) i++
        else if (escaped !== undefined && escaped !== '\n' && escaped !== '\r')
          stop(i, `invalid escape \\${escaped}; JSON escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX`)
      }
    }
    stop(start, 'unterminated string: the text ends before its closing double quote')
  }

  private number(): void {
    const start = this.at
    if (this.text[this.at] === '-') this.at++
    if (this.text.startsWith('Infinity', this.at)) stop(start, '-Infinity is not a JSON value; write a number or null')
    if (this.text[this.at] === '0') {
      this.at++
      if (/[0-9]/.test(this.text[this.at] ?? '')) stop(start, 'a number cannot start with 0 unless it is 0 (write 7, not 07)')
    } else if (/[1-9]/.test(this.text[this.at] ?? '')) {
      while (/[0-9]/.test(this.text[this.at] ?? '')) this.at++
    } else stop(start, 'a "-" must be followed by digits')
    if (this.text[this.at] === '.') {
      this.at++
      if (!/[0-9]/.test(this.text[this.at] ?? '')) stop(start, 'a decimal point must be followed by digits (write 1.0, not 1.)')
      while (/[0-9]/.test(this.text[this.at] ?? '')) this.at++
    }
    if (this.text[this.at] === 'e' || this.text[this.at] === 'E') {
      this.at++
      if (this.text[this.at] === '+' || this.text[this.at] === '-') this.at++
      if (!/[0-9]/.test(this.text[this.at] ?? '')) stop(start, 'an exponent must have digits (write 1e5)')
      while (/[0-9]/.test(this.text[this.at] ?? '')) this.at++
    }
  }

  private word(): void {
    const found = /^[A-Za-z_$][\w$]*/.exec(this.text.slice(this.at, this.at + 64))?.[0] ?? ''
    if (found === 'true' || found === 'false' || found === 'null') {
      this.at += found.length
      return
    }
    if (found === 'NaN' || found === 'Infinity') stop(this.at, `${found} is not a JSON value; write a number or null`)
    if (found === 'undefined') stop(this.at, 'undefined is not a JSON value; write null or leave the field out')
    stop(
      this.at,
      `unexpected word "${found}": strings need double quotes, and the only words are true, false and null (lower case)`,
    )
  }

  private container(close: '}' | ']'): void {
    const open = this.at
    const kind = close === '}' ? 'object' : 'array'
    this.at++
    this.space()
    if (this.text[this.at] === close) {
      this.at++
      return
    }
    for (;;) {
      if (close === '}') {
        this.space()
        const char = this.text[this.at]
        if (char === '"') this.string()
        else if (char === "'") stop(this.at, 'single-quoted property name; JSON names use double quotes')
        else if (char === undefined)
          stop(this.at, `unexpected end of the text: the object opened at ${this.where(open)} is not closed`)
        else if (/[A-Za-z_$]/.test(char)) stop(this.at, 'property name without double quotes; write "name"')
        else stop(this.at, `unexpected ${shown(this.text, this.at)}; expected a property name in double quotes`)
        this.space()
        if (this.text[this.at] !== ':') stop(this.at, `expected ":" after the property name, found ${shown(this.text, this.at)}`)
        this.at++
      }
      this.value(close === '}' ? 'a value after ":"' : 'a value')
      const valueEnd = this.at
      this.space()
      if (this.text[this.at] === close) {
        this.at++
        return
      }
      if (this.text[this.at] === ',') {
        const comma = this.at
        this.at++
        this.space()
        if (this.text[this.at] === close) stop(comma, `trailing comma before "${close}"; remove it`)
        continue
      }
      if (this.at >= this.text.length)
        stop(this.at, `unexpected end of the text: the ${kind} opened at ${this.where(open)} is not closed`)
      stop(
        this.at,
        `expected "," or "${close}" after the value that ends at ${this.where(valueEnd - 1)}, found ${shown(this.text, this.at)} (missing comma?)`,
      )
    }
  }

  private value(expected: string): void {
    this.space()
    const char = this.text[this.at]
    if (char === undefined) stop(this.at, `unexpected end of the text; expected ${expected}`)
    else if (char === '{') this.container('}')
    else if (char === '[') this.container(']')
    else if (char === '"') this.string()
    else if (char === "'") stop(this.at, 'single-quoted string; JSON strings use double quotes')
    else if (char === '-' || /[0-9]/.test(char)) this.number()
    else if (/[A-Za-z_$]/.test(char)) this.word()
    else stop(this.at, `unexpected ${shown(this.text, this.at)}; expected ${expected}`)
  }
}
