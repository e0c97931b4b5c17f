import { z } from 'zod'
import type { CorpusDocument } from '../../load/corpus.ts'
import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { assignQuestionIds } from '../question-ids.ts'
import { createContextMatcher } from './context-matcher.ts'
import type { ImportResult, SourceRef, UnmatchedContext } from './imported-question.ts'
import { parseRecords } from '../../files/read-records.ts'
import { RAGAS_NONE_REFERENCE } from '../../contract/ragas-none-reference.ts'

const contexts = z.array(z.string()).nullable().optional()

/** A context id: RAGAS types them `str | int` (SingleTurnSample), so an integer id is read as its decimal text. */
const contextId = z.union([z.string().min(1, 'expected a document id'), z.int().transform(String)], {
  error: 'expected a document id (a string or an integer)',
})

/**
 * One RAGAS-style sample (fields: docs/golden-set.md). `retrieved_contexts`/`retrieved_context_ids` are system output,
 * accepted but unused; RAGAS cannot say who asks (persona_name is synthetic), so userContext never crosses it.
 */
export const RagasRecordSchema = z.looseObject({
  id: z.string().min(1).optional(),
  user_input: z.string().trim().min(1, 'expected the question text'),
  reference: z.string().nullable().optional(),
  reference_contexts: contexts,
  reference_context_ids: z.array(contextId).nullable().optional(),
  retrieved_contexts: contexts,
  retrieved_context_ids: z.array(contextId).nullable().optional(),
})

const KNOWN_FIELDS = [
  'id',
  'user_input',
  'reference',
  'reference_contexts',
  'reference_context_ids',
  'retrieved_contexts',
  'retrieved_context_ids',
]

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat
}

/**
 * Reads a RAGAS-style dataset: answer documents from `reference_context_ids`, else the document containing each
 * reference context (context-matcher.ts); a context no single document contains is an unknown source.
 */
export function importRagas(text: string, file: string, docs: readonly CorpusDocument[]): ImportResult {
  const { parsed, ignored } = parseRecords(text, file, RagasRecordSchema, KNOWN_FIELDS)
  const match = createContextMatcher(docs)
  const ids = assignQuestionIds(parsed.map(({ record }) => record.id))
  const notices = ignored.notices(file, 'a golden set keeps the question, the reference answer and the reference contexts only')
  return {
    questions: parsed.map(({ source, record }, index) => {
      const sources: SourceRef[] = []
      const unmatched: UnmatchedContext[] = []
      const at = (field: string, i: number) => `${file}:${source.lineOf([field, i])}`
      if (record.reference_context_ids && record.reference_context_ids.length > 0) {
        record.reference_context_ids.forEach((docId, i) =>
          sources.push({ docId, where: at('reference_context_ids', i), field: `reference_context_ids[${i}]` }),
        )
      } else {
        ;(record.reference_contexts ?? []).forEach((context, i) => {
          const found = match(context)
          const field = `reference_contexts[${i}]`
          if (found.docId !== null) sources.push({ docId: found.docId, where: at('reference_contexts', i), field })
          else unmatched.push({ where: at('reference_contexts', i), field, excerpt: excerpt(context), reason: found.reason })
        })
      }
      return {
        where: `${file}:${source.line}`,
        id: ids[index]!,
        question: record.user_input,
        sources,
        unmatched,
        ...(record.reference && !(record.reference === RAGAS_NONE_REFERENCE && sources.length + unmatched.length === 0)
          ? { goldAnswer: record.reference }
          : {}),
      }
    }),
    notices,
  }
}

/**
 * Writes questions as RAGAS samples, JSON Lines or a JSON array; a none question without a reference gets
 * RAGAS_NONE_REFERENCE, and reference_contexts are the answer documents' full texts.
 */
export function exportRagas(questions: readonly GoldenQuestion[], docs: readonly CorpusDocument[], jsonl: boolean): string {
  const bodies = new Map(docs.map((doc) => [doc.id, doc.body.trim()]))
  const samples = questions.map((q) => ({
    user_input: q.question,
    reference: q.goldAnswer ?? (q.type === 'none' ? RAGAS_NONE_REFERENCE : ''),
    reference_contexts: q.answerDocIds.map((id) => bodies.get(id) ?? ''),
    reference_context_ids: q.answerDocIds,
  }))
  return jsonl ? samples.map((s) => JSON.stringify(s) + '\n').join('') : JSON.stringify(samples, null, 2) + '\n'
}
