import type { CorpusDocument } from './corpus.ts'
import { GoldenSetSchema, type GoldenQuestion } from '../contract/golden-set-schema.ts'
import { InputError } from '../contract/input-error.ts'
import { parseJsonText } from '../files/read-json-file.ts'
import { readUtf8File } from '../files/utf8-text.ts'

/**
 * Validates a parsed golden set. Every problem names the question (by id where it has one) and the
 * field: unknown fields, bad types, duplicate ids, answer docs absent from the corpus.
 */
export function validateGoldenSet(data: unknown, file: string, corpus: readonly CorpusDocument[] | null): GoldenQuestion[] {
  const parsed = GoldenSetSchema.safeParse(data)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const [, index, ...field] = issue.path
      if (issue.path[0] !== 'questions' || typeof index !== 'number') {
        const keys = issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}` : issue.message
        return `${file}: ${issue.path.length ? `field "${issue.path.join('.')}": ` : ''}${keys}`
      }
      const raw = (data as { questions: unknown[] }).questions[index]
      const rawId = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined
      const who = typeof rawId === 'string' ? `question ${rawId}` : `question #${index + 1}`
      if (issue.code === 'unrecognized_keys')
        return `${file}: ${who}: unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}`
      return `${file}: ${who}, field "${field.join('.') || '(question)'}": ${issue.message}`
    })
    throw new InputError(problems.join('\n'))
  }
  const questions = parsed.data.questions
  if (questions.length === 0) throw new InputError(`${file}: the golden set has no questions`)
  // A system that owns its documents (corpus: null): the ids cannot be checked here, only against what it returns.
  const docIds = corpus === null ? null : new Set(corpus.map((doc) => doc.id))
  const seen = new Set<string>()
  const problems: string[] = []
  for (const q of questions) {
    if (seen.has(q.id)) problems.push(`${file}: question ${q.id}, field "id": duplicate id`)
    seen.add(q.id)
    for (const docId of q.answerDocIds) {
      if (docIds !== null && !docIds.has(docId))
        problems.push(`${file}: question ${q.id}, field "answerDocIds": ${docId} is not a document of the corpus`)
    }
    for (const docId of q.probeDocIds ?? []) {
      if (docIds !== null && !docIds.has(docId))
        problems.push(`${file}: question ${q.id}, field "probeDocIds": ${docId} is not a document of the corpus`)
    }
    // Graded 0 (a distractor) is not in answerDocIds, so it is checked here (the others were above).
    for (const [docId, grade] of Object.entries(q.relevance ?? {})) {
      if (grade === 0 && docIds !== null && !docIds.has(docId))
        problems.push(`${file}: question ${q.id}, field "relevance": ${docId} is not a document of the corpus`)
    }
  }
  if (problems.length > 0) throw new InputError(problems.join('\n'))
  return questions
}

/** Reads and validates a golden-set file (UTF-8, a leading byte-order mark accepted) against the corpus. */
export function loadGoldenSet(file: string, corpus: readonly CorpusDocument[] | null): GoldenQuestion[] {
  const text = readUtf8File(file, 'expected the golden set here (goldenSet in rag-eval.config.ts)')
  return validateGoldenSet(parseJsonText(text, file), file, corpus)
}

/**
 * With `relevantGrade` above 1, an answerable question whose documents are all graded below it has nothing
 * left to find: its recall and MRR would be a meaningless 0, so the run stops and names it instead.
 */
export function checkRelevantGrade(questions: readonly GoldenQuestion[], relevantGrade: number | undefined, file: string): void {
  const grade = relevantGrade ?? 1
  if (grade <= 1) return
  const below = questions.filter((q) => q.type !== 'none' && !q.answerDocIds.some((id) => (q.relevance?.[id] ?? 1) >= grade))
  if (below.length === 0) return
  throw new InputError(
    below
      .map(
        (q) =>
          `${file}: question ${q.id}: no document is graded ${grade} or more (relevantGrade ${grade}), so nothing counts as relevant: grade its best document ${grade} or more in "relevance", or lower relevantGrade`,
      )
      .join('\n'),
  )
}
