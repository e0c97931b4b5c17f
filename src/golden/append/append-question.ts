import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { goldenSetText, questionJson, type QuestionLayout } from '../golden-set-text.ts'
import { schemaReference } from '../schema-reference.ts'
import { jsonSpans, type Span } from '../../files/json-spans.ts'

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1
}

/** Whitespace before `offset` on its line, or null when something else precedes it there. */
function indentBefore(text: string, offset: number): string | null {
  const before = text.slice(lineStart(text, offset), offset)
  return /^[ \t]*$/.test(before) ? before : null
}

/** The layout of an existing question: where its `{` sits and whether its fields are on lines of their own. */
export function layoutOf(text: string, element: Span): { layout: QuestionLayout; ownLine: boolean } {
  const indent = indentBefore(text, element.start)
  const firstField = element.members[0]
  const multiline = text.slice(element.start, element.end).includes('\n') && firstField !== undefined
  const fieldIndent = multiline ? (indentBefore(text, firstField.keyStart) ?? `${indent ?? ''}  `) : null
  return { layout: { indent: indent ?? '', fieldIndent }, ownLine: indent !== null }
}

/**
 * The golden-set text with `question` appended to the `questions` array, laid out like the last question; every
 * other byte stays as it was. `text` must be a JSON object with a `questions` array.
 */
export function appendQuestionText(text: string, question: GoldenQuestion): { text: string; at: number; inserted: string } {
  const root = jsonSpans(text)
  const array = root.members.find((member) => member.key === 'questions')?.value
  if (array === undefined || array.kind !== 'array') throw new Error('expected a top-level "questions" array')
  const last = array.elements.at(-1)
  let at: number
  let inserted: string
  if (last === undefined) {
    // An empty array: the question goes on its own line, two spaces deeper than the line of "questions".
    const base = text.slice(lineStart(text, array.start), array.start).match(/^[ \t]*/)![0]
    const layout: QuestionLayout = { indent: `${base}  `, fieldIndent: `${base}    ` }
    at = array.start + 1
    inserted = `\n${layout.indent}${questionJson(question, layout)}\n${base}`
    // Drop the whitespace an empty array may already hold, so the result is "[\n  {...}\n]".
    const inner = text.slice(at, array.end - 1)
    return { text: text.slice(0, at) + inserted + text.slice(at + inner.length), at, inserted }
  }
  const { layout, ownLine } = layoutOf(text, last)
  at = last.end
  inserted = ownLine
    ? `,\n${layout.indent}${questionJson(question, layout)}`
    : `, ${questionJson(question, { indent: '', fieldIndent: null })}`
  return { text: text.slice(0, at) + inserted + text.slice(at), at, inserted }
}

/** The text of golden set `file` (null: there is none yet) with `question` appended; a new file starts with its $schema. */
export function withQuestionAppended(text: string | null, file: string, question: GoldenQuestion): string {
  return text === null ? goldenSetText([question], schemaReference(file)) : appendQuestionText(text, question).text
}
