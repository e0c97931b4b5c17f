import type { z } from 'zod'
import { findJsonSyntaxError } from './json-syntax-error.ts'
import { InputError } from '../contract/input-error.ts'
import { lineColumnOf } from './line-column.ts'
import { readUtf8File } from './utf8-text.ts'

/**
 * Message for JSON text that JSON.parse rejected: `<file>:<line>:<column>: invalid JSON: <problem>`,
 * the position found by findJsonSyntaxError (V8's message often has none, or one past the mistake).
 * `linesBefore` counts the file's lines before `text` (a JSON Lines record is parsed on its own).
 */
export function jsonSyntaxMessage(text: string, file: string, parseError: unknown, linesBefore = 0): string {
  const found = findJsonSyntaxError(text)
  if (found === undefined) return `${file}: invalid JSON (${(parseError as Error).message})`
  const { line, column } = lineColumnOf(text, found.offset)
  return `${file}:${line + linesBefore}:${column}: invalid JSON: ${found.problem}`
}

/** Parses JSON text; a syntax error names the file, line and column, and what is wrong there. */
export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new InputError(jsonSyntaxMessage(text, file, error))
  }
}

/**
 * Reads a JSON file and validates it with its zod schema. Every failure is an InputError naming the
 * file (and the line and column, or the field) and ending with `hint`: what the user should do. The
 * file must be UTF-8 (a leading byte-order mark is accepted).
 */
export function readJsonFile<S extends z.ZodType>(file: string, schema: S, hint: string): z.output<S> {
  const parsed = schema.safeParse(parseJsonText(readUtf8File(file, hint), file))
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new InputError(`${file}: field "${issue.path.join('.')}": ${issue.message}; ${hint}`)
  }
  return parsed.data
}
