import type { CorpusDocument } from '../../load/corpus.ts'
import { validateGoldenSet } from '../../load/golden-set.ts'
import {
  GoldenQuestionSchema,
  type GoldenQuestion,
  type HistoryTurn,
  type Provenance,
  type UserContext,
} from '../../contract/golden-set-schema.ts'
import { type QuestionType } from '../../contract/question-types.ts'
import { InputError } from '../../contract/input-error.ts'

/** A document a record names as a source, and where. */
export interface SourceRef {
  docId: string
  /** File and line, `data.jsonl:12`. */
  where: string
  /** The field and index it came from, e.g. `gold_sources[1]`. */
  field: string
  /** Its relevance grade 1..3, for a format that grades (TREC qrels); absent: ungraded. */
  grade?: number
}

/** A context (RAGAS) that no single corpus document contains. */
export interface UnmatchedContext {
  where: string
  field: string
  excerpt: string
  reason: string
}

/** A question as an importer read it, before its sources are checked against the corpus. */
export interface ImportedQuestion {
  /** File and line of the record, `data.jsonl:12`. */
  where: string
  id: string
  /** Absent when the format has no type: inferred from the answer docs left (0 none, 1 single, 2+ multi). */
  type?: QuestionType
  question: string
  sources: SourceRef[]
  unmatched: UnmatchedContext[]
  goldAnswer?: string
  governingDocId?: string
  notes?: string
  userContext?: UserContext
  history?: HistoryTurn[]
  provenance?: Provenance
}

export interface ImportResult {
  questions: ImportedQuestion[]
  /** Things the user should know that do not stop the import (ignored fields, placeholders). */
  notices: string[]
}

function unknownSourceMessages(questions: readonly ImportedQuestion[], docIds: ReadonlySet<string>): string[] {
  const messages: string[] = []
  for (const q of questions) {
    for (const source of q.sources) {
      if (!docIds.has(source.docId))
        messages.push(
          `${source.where}: question ${q.id}: ${source.field} ${JSON.stringify(source.docId)} is not a document of the corpus`,
        )
    }
    for (const context of q.unmatched)
      messages.push(`${context.where}: question ${q.id}: ${context.field} ("${context.excerpt}") ${context.reason}`)
  }
  return messages
}

function inferType(answerDocCount: number): QuestionType {
  return answerDocCount === 0 ? 'none' : answerDocCount === 1 ? 'single' : 'multi'
}

/**
 * Imported questions checked against the corpus, schema and loader. Unknown sources fail the import (warnings with
 * `allowUnknown`, never dropped silently); a question left without one is rejected, never made a none question.
 */
export function finishImport(
  result: ImportResult,
  file: string,
  corpus: readonly CorpusDocument[],
  options: { allowUnknown: boolean },
): { questions: GoldenQuestion[]; warnings: string[] } {
  const docIds = new Set(corpus.map((doc) => doc.id))
  const unknown = unknownSourceMessages(result.questions, docIds)
  if (unknown.length > 0 && !options.allowUnknown) {
    throw new InputError(
      [
        ...unknown,
        unknown.length === 1
          ? '1 unknown source: correct it, add the document to the corpus, or pass --allow-unknown to drop it'
          : `${unknown.length} unknown sources: correct them, add the documents to the corpus, or pass --allow-unknown to drop them`,
      ].join('\n'),
    )
  }
  const warnings = [...result.notices, ...unknown.map((message) => `${message} (dropped: --allow-unknown)`)]

  const problems: string[] = []
  const firstSeen = new Map<string, string>()
  const questions: GoldenQuestion[] = []
  for (const q of result.questions) {
    const kept = q.sources.filter((s) => docIds.has(s.docId))
    const answerDocIds = [...new Set(kept.map((s) => s.docId))]
    // A question with sources, all of them dropped, is no none question: retyped, it would expect the
    // system to refuse a question its author thought answerable.
    if (answerDocIds.length === 0 && q.sources.length + q.unmatched.length > 0) {
      problems.push(
        `${q.where}: question ${q.id}: every source was dropped (--allow-unknown), so it has no answer document left; ` +
          'it is not retyped as a none question (one the system must refuse): correct its sources or remove it',
      )
      continue
    }
    const graded = kept.some((s) => s.grade !== undefined)
    const candidate = {
      id: q.id,
      type: q.type ?? inferType(answerDocIds.length),
      question: q.question,
      answerDocIds,
      ...(graded ? { relevance: Object.fromEntries(kept.map((s) => [s.docId, s.grade ?? 1])) } : {}),
      ...(q.goldAnswer !== undefined && q.goldAnswer.trim() !== '' ? { goldAnswer: q.goldAnswer } : {}),
      ...(q.governingDocId !== undefined ? { governingDocId: q.governingDocId } : {}),
      ...(q.notes !== undefined ? { notes: q.notes } : {}),
      ...(q.userContext !== undefined ? { userContext: q.userContext } : {}),
      ...(q.history !== undefined ? { history: q.history } : {}),
      ...(q.provenance !== undefined ? { provenance: q.provenance } : {}),
    }
    const earlier = firstSeen.get(q.id)
    if (earlier !== undefined) problems.push(`${q.where}: question ${q.id}: duplicate id (first used at ${earlier})`)
    else firstSeen.set(q.id, q.where)
    const parsed = GoldenQuestionSchema.safeParse(candidate)
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push(`${q.where}: question ${q.id}, field "${issue.path.join('.') || '(question)'}": ${issue.message}`)
      continue
    }
    questions.push(parsed.data)
  }
  if (problems.length > 0) throw new InputError(problems.join('\n'))
  validateGoldenSet({ questions }, file, corpus)
  return { questions, warnings }
}
