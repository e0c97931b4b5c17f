import type { z } from 'zod'
import { findJsonSyntaxError } from './json-syntax-error.ts'
import { InputError } from '../contract/input-error.ts'
import { lineColumnOf } from './line-column.ts'
import { readUtf8File } from './utf8-text.ts'

/**
 * `<file>:<line>:<column>: invalid JSON: <problem>`, positioned by findJsonSyntaxError (V8 often gives none). `linesBefore`:
 * the file's lines before `text` (a JSON Lines record is parsed alone).
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

/** Reads a UTF-8 JSON file and validates it; every failure is an InputError naming the file and place, ending with `hint`. */
export function readJsonFile<S extends z.ZodType>(file: string, schema: S, hint: string): z.output<S> {
  const parsed = schema.safeParse(parseJsonText(readUtf8File(file, hint), file))
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new InputError(`${file}: field "${issue.path.join('.')}": ${issue.message}; ${hint}`)
  }
  return parsed.data
}
