import { z } from 'zod'
import {
  HistorySchema,
  ProvenanceSchema,
  QuestionTypeSchema,
  UserContextSchema,
  type GoldenQuestion,
} from '../../contract/golden-set-schema.ts'
import { type QuestionType } from '../../contract/question-types.ts'
import { assignQuestionIds } from '../question-ids.ts'
import type { ImportResult } from './imported-question.ts'
import { parseRecords } from '../../files/read-records.ts'

/**
 * One JSONL gold line (fields: docs/golden-set.md); lookup, multi-hop and abstention are accepted beside the type
 * names. It cannot carry governingDocId: golden:check reports contradictions imported without one.
 */
export const JsonlGoldRecordSchema = z.looseObject({
  id: z.string().min(1, 'expected a non-empty id').optional(),
  question: z.string().trim().min(1, 'expected the question text'),
  gold_answer: z.string().nullable().optional(),
  gold_sources: z.array(z.string().min(1, 'expected a document id')),
  type: QuestionTypeSchema,
  user_context: UserContextSchema.nullable().optional(),
  // [] is how a tool writing every record alike says "no turns before this one": read as null, none.
  history: z
    .preprocess((value) => (Array.isArray(value) && value.length === 0 ? null : value), HistorySchema.nullable())
    .optional(),
  provenance: ProvenanceSchema.nullable().optional(),
})

const KNOWN_FIELDS = ['id', 'question', 'gold_answer', 'gold_sources', 'type', 'user_context', 'history', 'provenance']

/** The format's names for the canonical types. */
export const JSONL_TYPE_NAMES: Record<QuestionType, string> = {
  single: 'lookup',
  multi: 'multi-hop',
  contradiction: 'contradiction',
  none: 'abstention',
}

/** Reads a JSONL gold file; every problem names its line. */
export function importJsonlGold(text: string, file: string): ImportResult {
  const { parsed, ignored } = parseRecords(text, file, JsonlGoldRecordSchema, KNOWN_FIELDS)
  const ids = assignQuestionIds(parsed.map(({ record }) => record.id))
  return {
    questions: parsed.map(({ source, record }, index) => ({
      where: `${file}:${source.line}`,
      id: ids[index]!,
      type: record.type,
      question: record.question,
      sources: record.gold_sources.map((docId, i) => ({
        docId,
        where: `${file}:${source.lineOf(['gold_sources', i])}`,
        field: `gold_sources[${i}]`,
      })),
      unmatched: [],
      ...(record.gold_answer ? { goldAnswer: record.gold_answer } : {}),
      ...(record.user_context ? { userContext: record.user_context } : {}),
      ...(record.history && record.history.length > 0 ? { history: record.history } : {}),
      ...(record.provenance ? { provenance: record.provenance } : {}),
    })),
    notices: ignored.notices(file, `the JSONL gold format carries ${KNOWN_FIELDS.join(', ')}`),
  }
}

/**
 * Writes JSONL gold, ids kept; `user_context`, `history` and `provenance` only where present (a drafted question
 * stays told from a hand-written one); governingDocId, notes and grades are left out.
 */
export function exportJsonlGold(questions: readonly GoldenQuestion[]): string {
  return questions
    .map((q) =>
      JSON.stringify({
        id: q.id,
        question: q.question,
        gold_answer: q.goldAnswer ?? '',
        gold_sources: q.answerDocIds,
        type: JSONL_TYPE_NAMES[q.type],
        ...(q.userContext !== undefined ? { user_context: q.userContext } : {}),
        ...(q.history !== undefined ? { history: q.history } : {}),
        ...(q.provenance !== undefined ? { provenance: q.provenance } : {}),
      }),
    )
    .map((line) => line + '\n')
    .join('')
}
