import { checkbox, confirm, input, select } from '@inquirer/prompts'
import type { CorpusDocument } from '../../load/corpus.ts'
import { QUESTION_TYPES, type QuestionType } from '../../contract/question-types.ts'
import { MAX_GRADE, type HistoryTurn, type Relevance } from '../../contract/golden-set-schema.ts'
import { checkAnswerDocs, checkGoldAnswer, checkId, checkQuestionText } from './question-draft.ts'
import { supersededIds } from '../../golden/lint/contradiction-without-governing.ts'

/** What each type means, shown under the type choice. */
export const TYPE_HELP: Record<QuestionType, string> = {
  single: 'one document answers it (list restatements in other documents too)',
  multi: 'the answer needs facts from two or more documents',
  contradiction: 'documents disagree and one governs (a newer notice supersedes an older page)',
  none: 'the corpus does not answer it; the system should refuse',
}

export function askId(suggested: string, existingIds: readonly string[]): Promise<string> {
  return input({ message: 'Question id', default: suggested, validate: (value) => checkId(value.trim(), existingIds) }).then(
    (v) => v.trim(),
  )
}

export function askType(): Promise<QuestionType> {
  return select({
    message: 'Type',
    choices: QUESTION_TYPES.map((type) => ({ value: type, name: type, description: TYPE_HELP[type] })),
  })
}

export function askQuestion(): Promise<string> {
  return input({ message: 'Question (as a user would ask it)', validate: checkQuestionText }).then((v) => v.trim())
}

/** Answer documents as a checklist, those the built-in system ranks first, so the likely ones are on top. */
export function askAnswerDocs(
  type: QuestionType,
  docs: readonly CorpusDocument[],
  bestRank: ReadonlyMap<string, number>,
): Promise<string[]> {
  const ordered = [...docs].sort(
    (a, b) => (bestRank.get(a.id) ?? Infinity) - (bestRank.get(b.id) ?? Infinity) || a.id.localeCompare(b.id),
  )
  return checkbox({
    message: `Answer documents (${type === 'multi' ? 'two or more' : 'one or more'}; ranked ones first)`,
    pageSize: 12,
    choices: ordered.map((doc) => {
      const rank = bestRank.get(doc.id)
      return { value: doc.id, name: `${doc.id}  ${doc.title}${rank === undefined ? '' : `  (rank ${rank})`}`, short: doc.id }
    }),
    validate: (chosen) =>
      checkAnswerDocs(
        chosen.map((choice) => choice.value),
        type,
        docs,
      ),
  })
}

export function askGoverning(answerDocIds: readonly string[], docs: readonly CorpusDocument[]): Promise<string> {
  const byId = new Map(docs.map((doc) => [doc.id, doc]))
  const newest = [...answerDocIds].sort((a, b) => (byId.get(b)?.updated ?? '').localeCompare(byId.get(a)?.updated ?? ''))[0]
  return select({
    message: 'Governing document (whose answer holds)',
    default: newest,
    choices: answerDocIds.map((id) => {
      const doc = byId.get(id)
      return {
        value: id,
        name: `${id}  ${doc?.title ?? ''}`,
        short: id,
        description: doc ? `updated ${doc.updated}${doc.supersedes ? `, supersedes ${supersededIds(doc).join(', ')}` : ''}` : '',
      }
    }),
  })
}

export function askGoldAnswer(type: QuestionType): Promise<string> {
  return input({
    message: 'Gold answer (one or two sentences, facts from the answer documents only)',
    validate: (value) => checkGoldAnswer(value, type),
  })
}

export function askNotes(): Promise<string> {
  return input({ message: 'Notes (why it exists, the sentence it comes from, distractors; optional)' })
}

export function askConfirm(message: string): Promise<boolean> {
  return confirm({ message, default: true })
}

/** The turns before a follow-up question, asked in user/assistant pairs until an empty user turn. */
export async function askHistory(): Promise<HistoryTurn[]> {
  if (!(await confirm({ message: 'Is it a follow-up question (a conversation comes before it)?', default: false }))) return []
  const turns: HistoryTurn[] = []
  for (;;) {
    const user = (await input({ message: `Turn ${turns.length + 1}, the user (empty: the conversation ends here)` })).trim()
    if (user === '') return turns
    turns.push({ role: 'user', content: user })
    const reply = (
      await input({
        message: `Turn ${turns.length + 1}, the assistant's reply`,
        validate: (value) => (value.trim() === '' ? 'write the reply the assistant gave' : true),
      })
    ).trim()
    turns.push({ role: 'assistant', content: reply })
  }
}

/** Graded relevance, if wanted: a grade 1..3 per answer document, then 0 for ranked distractors. Null: ungraded. */
export async function askGrades(
  answerDocIds: readonly string[],
  rankedOthers: readonly string[],
  docs: readonly CorpusDocument[],
): Promise<Relevance | null> {
  if (!(await confirm({ message: `Grade the answer documents (1..${MAX_GRADE}, for nDCG)?`, default: false }))) return null
  const titles = new Map(docs.map((doc) => [doc.id, doc.title]))
  const relevance: Relevance = {}
  for (const docId of answerDocIds) {
    relevance[docId] = await select({
      message: `Grade of ${docId}  ${titles.get(docId) ?? ''}`,
      default: answerDocIds.length === 1 ? 3 : 2,
      choices: [
        { value: 3, name: '3  the primary source' },
        { value: 2, name: '2  relevant' },
        { value: 1, name: '1  partly relevant' },
      ],
    })
  }
  if (rankedOthers.length > 0) {
    const distractors = await checkbox({
      message: 'Ranked documents judged not relevant (grade 0; optional)',
      pageSize: 12,
      choices: rankedOthers.map((docId) => ({ value: docId, name: `${docId}  ${titles.get(docId) ?? ''}`, short: docId })),
    })
    for (const docId of distractors) relevance[docId] = 0
  }
  return relevance
}
