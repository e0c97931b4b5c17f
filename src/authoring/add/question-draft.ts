import type { CorpusDocument } from '../../load/corpus.ts'
import {
  GoldenQuestionSchema,
  HistorySchema,
  MAX_GRADE,
  QuestionTypeSchema,
  UserContextSchema,
  type GoldenQuestion,
  type HistoryTurn,
  type Relevance,
  type UserContext,
} from '../../contract/golden-set-schema.ts'
import { type QuestionType } from '../../contract/question-types.ts'
import { nextQuestionId } from '../../golden/question-ids.ts'
import { InputError } from '../../contract/input-error.ts'

/** Field checks shared by golden:add's flags and prompts: true or the message to show (@inquirer/prompts' `validate`). */
export type Check = true | string

/** A valid, unused id; a taken id suggests the next free one. */
export function checkId(id: string, existingIds: readonly string[]): Check {
  const parsed = GoldenQuestionSchema.shape.id.safeParse(id)
  if (!parsed.success) return `id ${JSON.stringify(id)}: ${parsed.error.issues[0]!.message}`
  if (existingIds.includes(id)) return `id ${id} is taken; the next free id is ${nextQuestionId(existingIds)}`
  return true
}

/** A type name or alias (lookup, multi-hop, abstention) as the canonical type; an InputError names what is wrong. */
export function parseType(value: string): QuestionType {
  const parsed = QuestionTypeSchema.safeParse(value.trim())
  if (!parsed.success) throw new InputError(parsed.error.issues[0]!.message)
  return parsed.data
}

/** `doc-001, doc-002` as a list. */
export function splitDocIds(value: string): string[] {
  return value
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '')
}

/** Answer docs that exist in the corpus, as many as the type needs, none twice. */
export function checkAnswerDocs(ids: readonly string[], type: QuestionType, docs: readonly CorpusDocument[]): Check {
  const known = new Set(docs.map((doc) => doc.id))
  const unknown = ids.filter((id) => !known.has(id))
  if (unknown.length > 0) return `not in the corpus: ${unknown.join(', ')}`
  if (new Set(ids).size !== ids.length) return 'a document is listed twice'
  if (type === 'none' && ids.length > 0) return 'a none question has no answer documents'
  if (type === 'multi' && ids.length < 2) return 'a multi question needs at least two answer documents'
  if (type !== 'none' && ids.length === 0) return `a ${type} question needs at least one answer document`
  return true
}

/** The governing document of a contradiction question: one of its answer docs. */
export function checkGoverning(id: string, answerDocIds: readonly string[]): Check {
  return answerDocIds.includes(id) ? true : `${id} is not one of the answer docs (${answerDocIds.join(', ')})`
}

export function checkQuestionText(text: string): Check {
  return text.trim() === '' ? 'write the question as a user would ask it' : true
}

/** A gold answer where the type needs one (all but none). */
export function checkGoldAnswer(text: string, type: QuestionType): Check {
  return type !== 'none' && text.trim() === '' ? `a ${type} question needs a gold answer of one or two sentences` : true
}

/** `path.to[1].field` for a zod issue path under `root`. */
function pathText(root: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : `${text}.${String(key)}`), root)
}

function parseJson(text: string, example: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    throw new InputError(`not JSON (${error instanceof Error ? error.message : String(error)}); expected ${example}`)
  }
}

/** The turns before a follow-up question, as JSON: `[{"role": "user", "content": "..."}, ...]`. */
export function parseHistory(text: string): HistoryTurn[] {
  const parsed = HistorySchema.safeParse(
    parseJson(text, 'a JSON list such as [{"role": "user", "content": "What does Pro cost?"}]'),
  )
  if (parsed.success) return parsed.data
  throw new InputError(parsed.error.issues.map((issue) => `${pathText('history', issue.path)}: ${issue.message}`).join('; '))
}

/** Who asks, as a JSON object: `{"tenant": "acme", "role": "admin"}`. */
export function parseUserContext(text: string): UserContext {
  const parsed = UserContextSchema.safeParse(parseJson(text, 'a JSON object such as {"tenant": "acme", "role": "admin"}'))
  if (parsed.success) return parsed.data
  throw new InputError(parsed.error.issues[0]!.message)
}

/** `doc-040=3, doc-012=1, doc-031=0`: grades 0..3 in the order given (0: a judged distractor; 3: the primary source). */
export function parseRelevance(text: string): Relevance {
  const relevance: Relevance = {}
  const items = splitDocIds(text)
  if (items.length === 0) throw new InputError(`expected doc=grade pairs such as doc-040=3,doc-012=1 (grades 0..${MAX_GRADE})`)
  for (const item of items) {
    const match = /^(.+?)\s*=\s*(.*)$/.exec(item)
    if (match === null) throw new InputError(`${item} has no grade: write ${item}=${MAX_GRADE} (grades 0..${MAX_GRADE})`)
    const [, docId, gradeText] = match as unknown as [string, string, string]
    if (!/^\d+$/.test(gradeText) || Number(gradeText) > MAX_GRADE)
      throw new InputError(`${item}: expected a grade, an integer 0..${MAX_GRADE}`)
    if (Object.hasOwn(relevance, docId)) throw new InputError(`${docId} is graded twice`)
    relevance[docId] = Number(gradeText)
  }
  return relevance
}

/** The documents a grading makes answer documents (graded 1 or more), in the order they were graded. */
export function answerDocsOf(relevance: Relevance): string[] {
  return Object.entries(relevance)
    .filter(([, grade]) => grade >= 1)
    .map(([docId]) => docId)
}

/** Graded documents that exist in the corpus. */
export function checkGradedDocs(relevance: Relevance, docs: readonly CorpusDocument[]): Check {
  const known = new Set(docs.map((doc) => doc.id))
  const unknown = Object.keys(relevance).filter((id) => !known.has(id))
  return unknown.length > 0 ? `not in the corpus: ${unknown.join(', ')}` : true
}

/** A question as composed: the golden-set fields, the optional ones possibly empty or undefined. */
export type Draft = Pick<GoldenQuestion, 'id' | 'type' | 'question' | 'answerDocIds'> & {
  [K in 'relevance' | 'goldAnswer' | 'governingDocId' | 'notes' | 'userContext' | 'history' | 'probeDocIds']?:
    GoldenQuestion[K] | undefined
}

/** The question as the golden-set schema reads it (empty optional fields left out), or every problem. */
export function buildQuestion(draft: Draft): GoldenQuestion | { errors: string[] } {
  const parsed = GoldenQuestionSchema.safeParse({
    id: draft.id,
    type: draft.type,
    ...(draft.history !== undefined && draft.history.length > 0 ? { history: draft.history } : {}),
    question: draft.question.trim(),
    answerDocIds: draft.answerDocIds,
    ...(draft.relevance !== undefined ? { relevance: draft.relevance } : {}),
    ...(draft.goldAnswer?.trim() ? { goldAnswer: draft.goldAnswer.trim() } : {}),
    ...(draft.governingDocId ? { governingDocId: draft.governingDocId } : {}),
    ...(draft.notes?.trim() ? { notes: draft.notes.trim() } : {}),
    ...(draft.userContext !== undefined ? { userContext: draft.userContext } : {}),
    ...(draft.probeDocIds !== undefined ? { probeDocIds: draft.probeDocIds } : {}),
  })
  if (parsed.success) return parsed.data
  return { errors: parsed.error.issues.map((issue) => `${issue.path.join('.') || 'question'}: ${issue.message}`) }
}
