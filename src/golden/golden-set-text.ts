import type { GoldenQuestion } from '../contract/golden-set-schema.ts'

/** How questions are laid out in a golden-set file. */
export interface QuestionLayout {
  /** Indentation of the line a question's `{` opens (and its `}` closes) on. */
  indent: string
  /** Indentation of each field on its own line; null for a question on one line (`{ "id": ..., ... }`). */
  fieldIndent: string | null
}

/** The layout of evals/golden-set.json: questions 4 spaces in, fields 6, arrays of ids inline. */
export const DEFAULT_LAYOUT: QuestionLayout = { indent: '    ', fieldIndent: '      ' }

/** A question's fields in the schema's order, leaving out absent ones. */
function fields(question: GoldenQuestion): [string, unknown][] {
  const all: [string, unknown][] = [
    ['id', question.id],
    ['type', question.type],
    ['question', question.question],
    ['answerDocIds', question.answerDocIds],
    ['relevance', question.relevance],
    ['goldAnswer', question.goldAnswer],
    ['governingDocId', question.governingDocId],
    ['notes', question.notes],
  ]
  return all.filter(([, value]) => value !== undefined)
}

function valueJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => JSON.stringify(item)).join(', ')}]`
  // The grades, inline as the ids are: { "doc-040": 3, "doc-012": 1 }.
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${JSON.stringify(item)}`)
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`
  }
  return JSON.stringify(value)
}

/**
 * One question as JSON text in the repository's style: one field per line (or all on one line), the
 * answerDocIds array and the relevance grades inline. The text starts at `{` (the caller places the first line) and ends at `}`.
 */
export function questionJson(question: GoldenQuestion, layout: QuestionLayout = DEFAULT_LAYOUT): string {
  const parts = fields(question).map(([key, value]) => `${JSON.stringify(key)}: ${valueJson(value)}`)
  if (layout.fieldIndent === null) return `{ ${parts.join(', ')} }`
  return `{\n${parts.map((part) => layout.fieldIndent + part).join(',\n')}\n${layout.indent}}`
}

/** A whole golden-set file in the style of evals/golden-set.json, with a trailing newline; no `$schema` line when `schemaRef` is null. */
export function goldenSetText(questions: readonly GoldenQuestion[], schemaRef: string | null): string {
  const items = questions.map((q) => DEFAULT_LAYOUT.indent + questionJson(q)).join(',\n')
  const schemaLine = schemaRef === null ? '' : `\n  "$schema": ${JSON.stringify(schemaRef)},`
  return `{${schemaLine}\n  "questions": [${questions.length === 0 ? '' : `\n${items}\n  `}]\n}\n`
}
