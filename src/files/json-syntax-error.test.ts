import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { mulberry32 } from '../statistics/seeded-random.ts'
import { findJsonSyntaxError } from './json-syntax-error.ts'
import { lineColumnOf } from './line-column.ts'
import { parseJsonText, readJsonFile } from './read-json-file.ts'
import { failureMessage as failure } from '../testing/failure-message.ts'

/** The error message parseJsonText gives for a text, without the file name. */
const problemOf = (text: string) => failure(() => parseJsonText(text, 'f.json')).replace(/^f\.json:/, '')

describe('lineColumnOf', () => {
  it('counts lines at \\n and columns from 1 in UTF-16 code units', () => {
    const text = 'ab\ncd\r\nef'
    expect([0, 1, 2, 3, 5, 6, 7, 9, 99].map((offset) => lineColumnOf(text, offset))).toEqual([
      { line: 1, column: 1 },
      { line: 1, column: 2 },
      { line: 1, column: 3 },
      { line: 2, column: 1 },
      { line: 2, column: 3 },
      { line: 2, column: 4 },
      { line: 3, column: 1 },
      { line: 3, column: 3 },
      { line: 3, column: 3 },
    ])
  })
})

describe('JSON syntax errors name the real line and column', () => {
  // Each position is counted by hand from the fixture text: line, then column from 1.
  it('single-quoted string: at the opening quote', () => {
    const text = '{\n  "questions": [\n    {\n      "id": "q-001",\n      "type": \'single\'\n    }\n  ]\n}\n'
    expect(problemOf(text)).toBe('5:15: invalid JSON: single-quoted string; JSON strings use double quotes')
    expect(problemOf("{'a': 1}")).toBe('1:2: invalid JSON: single-quoted property name; JSON names use double quotes')
  })

  it('NaN, Infinity and -Infinity: at the value', () => {
    expect(problemOf('{\n  "mean": NaN\n}')).toBe('2:11: invalid JSON: NaN is not a JSON value; write a number or null')
    expect(problemOf('{\n  "max": Infinity\n}')).toBe('2:10: invalid JSON: Infinity is not a JSON value; write a number or null')
    expect(problemOf('{\n  "p10": -Infinity\n}')).toBe(
      '2:10: invalid JSON: -Infinity is not a JSON value; write a number or null',
    )
  })

  it('trailing comma: at the comma itself', () => {
    expect(problemOf('{\n  "a": 1,\n  "b": 2,\n}')).toBe('3:9: invalid JSON: trailing comma before "}"; remove it')
    expect(problemOf('[1, 2,]')).toBe('1:6: invalid JSON: trailing comma before "]"; remove it')
  })

  it('missing comma: at the token after it, naming where the value before it ends', () => {
    expect(problemOf('{\n  "a": 1\n  "b": 2\n}')).toBe(
      `3:3: invalid JSON: expected "," or "}" after the value that ends at 2:8, found '"' (missing comma?)`,
    )
    expect(problemOf('[\n  {"id": 1}\n  {"id": 2}\n]')).toBe(
      '3:3: invalid JSON: expected "," or "]" after the value that ends at 2:11, found "{" (missing comma?)',
    )
  })

  it('unterminated string: at its opening quote', () => {
    expect(problemOf('{\n  "a": "abc,\n  "b": 2\n}')).toBe(
      '2:8: invalid JSON: unterminated string: the line ends before its closing double quote',
    )
    expect(problemOf('{"a": "abc')).toBe('1:7: invalid JSON: unterminated string: the text ends before its closing double quote')
  })

  it('comments: at the comment', () => {
    expect(problemOf('{\n  // the questions\n  "questions": []\n}')).toBe(
      '2:3: invalid JSON: comments are not allowed in JSON; remove it',
    )
    expect(problemOf('{"a": 1 /* one */}')).toBe('1:9: invalid JSON: comments are not allowed in JSON; remove it')
  })

  it('other mistakes: unquoted names, bad escapes and numbers, text cut short, text after the value, an empty text', () => {
    expect(problemOf('{ a: 1 }')).toBe('1:3: invalid JSON: property name without double quotes; write "name"')
    expect(problemOf('{"a" 1}')).toBe('1:6: invalid JSON: expected ":" after the property name, found "1"')
    expect(problemOf('["a\\qb"]')).toBe(
      '1:4: invalid JSON: invalid escape \\q; JSON escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX',
    )
    expect(problemOf('["a\tb"]')).toBe(
      '1:4: invalid JSON: control character U+0009 inside a string; write it as an escape such as \\t',
    )
    expect(problemOf('{"n": 07}')).toBe('1:7: invalid JSON: a number cannot start with 0 unless it is 0 (write 7, not 07)')
    expect(problemOf('{"n": True}')).toBe(
      '1:7: invalid JSON: unexpected word "True": strings need double quotes, and the only words are true, false and null (lower case)',
    )
    expect(problemOf('{"a": [1, 2')).toBe('1:12: invalid JSON: unexpected end of the text: the array opened at 1:7 is not closed')
    expect(problemOf('{}\n{}')).toBe('2:1: invalid JSON: unexpected "{" after the end of the JSON value')
    expect(problemOf('  \n')).toBe('2:1: invalid JSON: the text is empty; expected a JSON value')
    expect(problemOf('{\r\n  "a": \'x\'\r\n}')).toBe('2:8: invalid JSON: single-quoted string; JSON strings use double quotes')
  })

  it('agrees with JSON.parse on what is JSON, over 2000 one-character edits of golden questions', () => {
    const questions = (JSON.parse(readFileSync('evals/golden-set.json', 'utf8')) as { questions: unknown[] }).questions.slice(
      0,
      3,
    )
    const valid = JSON.stringify({ questions, score: -1.5e-3, ok: true, none: null }, null, 2)
    expect(findJsonSyntaxError(valid)).toBeUndefined()
    const random = mulberry32(7)
    const alphabet = ' \n",:{}[]\\\'0-.eEtrufalsnNI/*x\t'
    const outcomes = { parses: 0, rejected: 0 }
    for (let i = 0; i < 2000; i++) {
      const at = Math.floor(random() * valid.length)
      const char = alphabet[Math.floor(random() * alphabet.length)]!
      const edited =
        random() < 0.5 ? valid.slice(0, at) + char + valid.slice(at + 1) : valid.slice(0, at) + char + valid.slice(at)
      let parses = true
      try {
        JSON.parse(edited)
      } catch {
        parses = false
      }
      outcomes[parses ? 'parses' : 'rejected']++
      expect(findJsonSyntaxError(edited) === undefined, edited).toBe(parses)
    }
    // Both kinds of text were met, so the agreement was tested both ways.
    expect(outcomes.parses).toBeGreaterThan(100)
    expect(outcomes.rejected).toBeGreaterThan(100)
  })
})

describe('files with JSON errors', () => {
  const made: string[] = []
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
  const fileWith = (content: string | Uint8Array) => {
    const dir = mkdtempSync(join(tmpdir(), 'json-syntax-'))
    made.push(dir)
    writeFileSync(join(dir, 'summary.json'), content)
    return join(dir, 'summary.json')
  }

  it('a NaN on line 39 of a 51-line summary is reported on line 39, not at the end of the file', () => {
    // Line 1 is "{", line k + 1 holds m<k>: m38 is on line 39, its NaN at column 10 (after `  "m38": `).
    const lines = [
      '{',
      ...Array.from({ length: 49 }, (_, i) => `  "m${i + 1}": ${i + 1 === 38 ? 'NaN' : i + 1}${i < 48 ? ',' : ''}`),
      '}',
    ]
    expect(lines).toHaveLength(51)
    expect(lines[38]).toBe('  "m38": NaN,')
    const file = fileWith(lines.join('\n') + '\n')
    expect(failure(() => readJsonFile(file, z.record(z.string(), z.number()), 'run it again'))).toBe(
      `${file}:39:10: invalid JSON: NaN is not a JSON value; write a number or null`,
    )
  })

  it('accepts a byte-order mark and rejects bytes that are not UTF-8, with their offset', () => {
    const schema = z.object({ a: z.number() })
    expect(readJsonFile(fileWith('\uFEFF{"a": 1}'), schema, 'fix it')).toEqual({ a: 1 })
    // {"a": " is 7 bytes (offsets 0-6): the stray 0xFF is byte 7.
    const file = fileWith(Uint8Array.from([...Buffer.from('{"a": "'), 0xff, ...Buffer.from('"}')]))
    expect(failure(() => readJsonFile(file, schema, 'fix it'))).toMatch(
      /: not valid UTF-8: byte 0xFF at byte offset 7 \(line 1\)/,
    )
  })
})
