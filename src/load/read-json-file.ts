import { readFileSync } from 'node:fs'
import type { z } from 'zod'
import { InputError } from './input-error.ts'

/** Line and column (from 1) of a character offset. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset)
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') }
}

/** Parses JSON text; a syntax error names the file, line and column. */
export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    const message = (error as Error).message
    const position = /position (\d+)/.exec(message)
    const { line, column } = lineAndColumn(text, position ? Number(position[1]) : text.length)
    throw new InputError(`${file}:${line}:${column}: invalid JSON (${message})`)
  }
}

/**
 * Reads a JSON file and validates it with its zod schema. Every failure is an InputError naming the
 * file (and the line and column, or the field) and ending with `hint`: what the user should do.
 */
export function readJsonFile<S extends z.ZodType>(file: string, schema: S, hint: string): z.output<S> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    throw new InputError(`${file}: not found; ${hint}`)
  }
  const parsed = schema.safeParse(parseJsonText(text, file))
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new InputError(`${file}: field "${issue.path.join('.')}": ${issue.message}; ${hint}`)
  }
  return parsed.data
}
