import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { jsonSpans, type Span } from '../../files/json-spans.ts'
import { layoutOf } from '../../golden/append/append-question.ts'
import { questionJson } from '../../golden/golden-set-text.ts'

/** The element of the `questions` array whose id is `id`, with its neighbours; null when there is none. */
function elementOf(text: string, id: string): { elements: Span[]; index: number } | null {
  const root = jsonSpans(text)
  const array = root.members.find((member) => member.key === 'questions')?.value
  if (array === undefined || array.kind !== 'array') return null
  const index = array.elements.findIndex((element) => {
    const idSpan = element.members.find((member) => member.key === 'id')?.value
    return idSpan !== undefined && idSpan.kind === 'string' && JSON.parse(text.slice(idSpan.start, idSpan.end)) === id
  })
  return index < 0 ? null : { elements: array.elements, index }
}

/**
 * The golden-set text with question `id` replaced (laid out as it was) or, for null, removed with its separator;
 * every other byte unchanged. Null when the file holds no question `id`.
 */
export function rewriteQuestionText(text: string, id: string, question: GoldenQuestion | null): string | null {
  const found = elementOf(text, id)
  if (found === null) return null
  const { elements, index } = found
  const element = elements[index]!
  if (question !== null) {
    const { layout } = layoutOf(text, element)
    return text.slice(0, element.start) + questionJson(question, layout) + text.slice(element.end)
  }
  // Removed: from the end of the previous question (its comma and line break go too), or for the first,
  // up to the next one; the only question leaves an empty array.
  const previous = elements[index - 1]
  const next = elements[index + 1]
  if (previous !== undefined) return text.slice(0, previous.end) + text.slice(element.end)
  if (next !== undefined) return text.slice(0, element.start) + text.slice(next.start)
  const open = text.lastIndexOf('[', element.start)
  const close = text.indexOf(']', element.end)
  return `${text.slice(0, open + 1)}${text.slice(close)}`
}
