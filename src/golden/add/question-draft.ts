import type { CorpusDocument } from '../../load/corpus.ts'
import { GoldenQuestionSchema, QuestionTypeSchema, type GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { type QuestionType } from '../../contract/question-types.ts'
import { nextQuestionId } from '../question-ids.ts'

/**
 * Checks of the fields of a new question, shared by the flags and the prompts of golden:add: each
 * returns true or the message to show (the shape @inquirer/prompts' `validate` expects).
 */
export type Check = true | string

/** A valid, unused id; a taken id suggests the next free one. */
export function checkId(id: string, existingIds: readonly string[]): Check {
  const parsed = GoldenQuestionSchema.shape.id.safeParse(id)
  if (!parsed.success) return `id ${JSON.stringify(id)}: ${parsed.error.issues[0]!.message}`
  if (existingIds.includes(id)) return `id ${id} is taken; the next free id is ${nextQuestionId(existingIds)}`
  return true
}

/** A type name or alias (lookup, multi-hop, abstention) as the canonical type, or the message. */
export function parseType(value: string): QuestionType | { error: string } {
  const parsed = QuestionTypeSchema.safeParse(value.trim())
  return parsed.success ? parsed.data : { error: parsed.error.issues[0]!.message }
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

export interface Draft {
  id: string
  type: QuestionType
  question: string
  answerDocIds: string[]
  goldAnswer?: string | undefined
  governingDocId?: string | undefined
  notes?: string | undefined
}

/** The question as the golden-set schema reads it (empty optional fields left out), or every problem. */
export function buildQuestion(draft: Draft): GoldenQuestion | { errors: string[] } {
  const parsed = GoldenQuestionSchema.safeParse({
    id: draft.id,
    type: draft.type,
    question: draft.question.trim(),
    answerDocIds: draft.answerDocIds,
    ...(draft.goldAnswer?.trim() ? { goldAnswer: draft.goldAnswer.trim() } : {}),
    ...(draft.governingDocId ? { governingDocId: draft.governingDocId } : {}),
    ...(draft.notes?.trim() ? { notes: draft.notes.trim() } : {}),
  })
  if (parsed.success) return parsed.data
  return { errors: parsed.error.issues.map((issue) => `${issue.path.join('.') || 'question'}: ${issue.message}`) }
}
