import { GoldenQuestionSchema, type GoldenQuestion } from '../contract/golden-set-schema.ts'

/** How questions are laid out in a golden-set file. */
export interface QuestionLayout {
  /** Indentation of the line a question's `{` opens (and its `}` closes) on. */
  indent: string
  /** Indentation of each field on its own line; null for a question on one line (`{ "id": ..., ... }`). */
  fieldIndent: string | null
}

/** The layout of evals/golden-set.json: questions 4 spaces in, fields 6, arrays of ids inline. */
export const DEFAULT_LAYOUT: QuestionLayout = { indent: '    ', fieldIndent: '      ' }

/** Every schema field in its order, read from the schema so a new field is written by every writer. */
const FIELD_NAMES = Object.keys(GoldenQuestionSchema.shape) as (keyof GoldenQuestion)[]

/** A question's fields in the schema's order, leaving out absent ones. */
function fields(question: GoldenQuestion): [string, unknown][] {
  return FIELD_NAMES.map((name): [string, unknown] => [name, question[name]]).filter(([, value]) => value !== undefined)
}

/** JSON on one line with a space after each `:` and `,` (`{ "role": "user", "content": "..." }`), as a person types it. */
function valueJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(valueJson).join(', ')}]`
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${valueJson(item)}`)
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`
  }
  return JSON.stringify(value)
}

/** A field's value; a list of objects (the history's turns) one item per line when the fields have lines of their own. */
function fieldValueJson(value: unknown, fieldIndent: string | null): string {
  const listOfObjects = Array.isArray(value) && value.some((item) => typeof item === 'object' && item !== null)
  if (fieldIndent === null || !listOfObjects) return valueJson(value)
  return `[\n${value.map((item) => `${fieldIndent}  ${valueJson(item)}`).join(',\n')}\n${fieldIndent}]`
}

/**
 * One question as JSON text in the repository's style (one field per line or all on one line; arrays and userContext
 * inline, history a turn per line), from `{` to `}`: the caller places the first line.
 */
export function questionJson(question: GoldenQuestion, layout: QuestionLayout = DEFAULT_LAYOUT): string {
  const parts = fields(question).map(([key, value]) => `${JSON.stringify(key)}: ${fieldValueJson(value, layout.fieldIndent)}`)
  if (layout.fieldIndent === null) return `{ ${parts.join(', ')} }`
  return `{\n${parts.map((part) => layout.fieldIndent + part).join(',\n')}\n${layout.indent}}`
}

/** A whole golden-set file in the style of evals/golden-set.json, with a trailing newline; no `$schema` line when `schemaRef` is null. */
export function goldenSetText(questions: readonly GoldenQuestion[], schemaRef: string | null): string {
  const items = questions.map((q) => DEFAULT_LAYOUT.indent + questionJson(q)).join(',\n')
  const schemaLine = schemaRef === null ? '' : `\n  "$schema": ${JSON.stringify(schemaRef)},`
  return `{${schemaLine}\n  "questions": [${questions.length === 0 ? '' : `\n${items}\n  `}]\n}\n`
}
