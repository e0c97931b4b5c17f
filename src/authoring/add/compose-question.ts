import type { GoldenQuestion, HistoryTurn, Relevance, UserContext } from '../../contract/golden-set-schema.ts'
import { InputError } from '../../contract/input-error.ts'
import type { QuestionType } from '../../contract/question-types.ts'
import type { EvalConfig } from '../../contract/eval-config-schema.ts'
import type { createBuiltinSystem } from '../../builtin/builtin-system.ts'
import { withQuestionAppended } from '../../golden/append/append-question.ts'
import { writeGoldenFile, type GoldenFile } from '../../golden/append/golden-file-to-append.ts'
import { lintQuestions } from '../../golden/lint/best-chunks.ts'
import type { Finding } from '../../golden/lint/finding.ts'
import { nextQuestionId } from '../../golden/question-ids.ts'
import type { CorpusDocument } from '../../load/corpus.ts'
import { validateGoldenSet } from '../../load/golden-set.ts'
import {
  askAnswerDocs,
  askGoldAnswer,
  askGoverning,
  askGrades,
  askHistory,
  askId,
  askNotes,
  askQuestion,
  askType,
} from './prompts.ts'
import {
  answerDocsOf,
  buildQuestion,
  checkAnswerDocs,
  checkGradedDocs,
  checkGoldAnswer,
  checkGoverning,
  checkId,
  checkQuestionText,
  splitDocIds,
  type Check,
} from './question-draft.ts'

function ensure(check: Check, flag: string): void {
  if (check !== true) throw new InputError(`${flag}: ${check}`)
}

/** The flags a non-interactive run must give for a question of `type` (unknown: the type itself is missing). */
export function missingFlags(values: Record<string, unknown>, type: QuestionType | undefined): string[] {
  const missing: string[] = []
  if (values.type === undefined) missing.push('--type')
  if (values.question === undefined) missing.push('--question')
  if (type !== 'none' && values['answer-docs'] === undefined && values.relevance === undefined)
    missing.push('--answer-docs (or --relevance)')
  if (type !== 'none' && values['gold-answer'] === undefined) missing.push('--gold-answer')
  if (type === 'contradiction' && values.governing === undefined) missing.push('--governing')
  return missing
}

export type BuiltinSystem = ReturnType<typeof createBuiltinSystem>

/** The flags that give the question's fields; what they leave out is asked for on a terminal. */
export interface QuestionFlags {
  id?: string | undefined
  type?: QuestionType | undefined
  question?: string | undefined
  'answer-docs'?: string | undefined
  relevance?: Relevance | undefined
  'gold-answer'?: string | undefined
  governing?: string | undefined
  notes?: string | undefined
  'user-context'?: UserContext | undefined
  history?: HistoryTurn[] | undefined
  'probe-docs'?: string | undefined
}

/** The question from its flags and the answers to what they leave out, each field checked as it comes. */
export async function composeQuestion(
  values: QuestionFlags,
  interactive: boolean,
  existingIds: string[],
  docs: readonly CorpusDocument[],
  system: BuiltinSystem,
): Promise<GoldenQuestion> {
  const suggested = nextQuestionId(existingIds)
  const id = values.id?.trim() ?? (interactive ? await askId(suggested, existingIds) : suggested)
  ensure(checkId(id, existingIds), '--id')
  const type = values.type ?? (await askType())
  const userContext = values['user-context']
  // The conversation comes first: the question is written as it follows it ("and on the Enterprise plan?").
  const history = values.history ?? (interactive && values.question === undefined ? await askHistory() : [])
  const questionText = values.question ?? (await askQuestion())
  ensure(checkQuestionText(questionText), '--question')
  const asked = { id, question: questionText, userContext: userContext ?? null, ...(history.length > 0 ? { history } : {}) }

  let relevance = values.relevance
  if (relevance !== undefined) ensure(checkGradedDocs(relevance, docs), '--relevance')
  let answerDocIds: string[] = []
  let rankedDocIds: string[] = []
  if (values['answer-docs'] !== undefined) {
    answerDocIds = splitDocIds(values['answer-docs'])
    ensure(checkAnswerDocs(answerDocIds, type, docs), '--answer-docs')
  } else if (relevance !== undefined) {
    answerDocIds = answerDocsOf(relevance)
    ensure(checkAnswerDocs(answerDocIds, type, docs), '--relevance')
  } else if (type !== 'none') {
    const { ranked } = await system.answer(asked)
    const bestRank = new Map<string, number>()
    ranked.forEach((chunk, index) => bestRank.has(chunk.docId) || bestRank.set(chunk.docId, index + 1))
    rankedDocIds = [...bestRank.keys()]
    answerDocIds = await askAnswerDocs(type, docs, bestRank)
  }
  if (relevance === undefined && interactive && type !== 'none' && values['answer-docs'] === undefined) {
    const others = rankedDocIds.filter((docId) => !answerDocIds.includes(docId)).slice(0, 10)
    relevance = (await askGrades(answerDocIds, others, docs)) ?? undefined
  }

  let governingDocId: string | undefined
  if (type === 'contradiction') {
    governingDocId = values.governing ?? (await askGoverning(answerDocIds, docs))
    ensure(checkGoverning(governingDocId, answerDocIds), '--governing')
  } else if (values.governing !== undefined) {
    throw new InputError(`--governing: only contradiction questions have a governing document (this one is ${type})`)
  }

  const goldAnswer = values['gold-answer'] ?? (type === 'none' ? undefined : await askGoldAnswer(type))
  if (goldAnswer !== undefined) ensure(checkGoldAnswer(goldAnswer, type), '--gold-answer')
  const notes = values.notes ?? (interactive ? await askNotes() : undefined)

  const built = buildQuestion({
    id,
    type,
    question: questionText,
    answerDocIds,
    relevance,
    goldAnswer,
    governingDocId,
    notes,
    userContext,
    history,
    probeDocIds: values['probe-docs'] === undefined ? undefined : splitDocIds(values['probe-docs']),
  })
  if ('errors' in built) throw new InputError(built.errors.join('\n'))
  return built
}

/** Appends `question` to golden set `file` as it was read; a file changed since is refused, naming what changed. */
export function appendQuestion(file: string, read: GoldenFile, question: GoldenQuestion, docs: readonly CorpusDocument[]): void {
  const text = withQuestionAppended(read.text, file, question)
  validateGoldenSet(JSON.parse(text), file, docs)
  writeGoldenFile(file, read.text, text, 'golden add')
}

/** What golden:check finds in the new question, beside the set's questions (no type floors: one question is no set). */
export async function questionFindings(
  question: GoldenQuestion,
  read: GoldenFile,
  docs: readonly CorpusDocument[],
  config: EvalConfig,
): Promise<Finding[]> {
  const floors = { single: 0, multi: 0, contradiction: 0, none: 0 }
  return (await lintQuestions([...read.questions, question], docs, config, floors)).filter((f) => f.questionId === question.id)
}
