import { GoldenQuestionSchema, type GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { InputError } from '../../contract/input-error.ts'
import { readUtf8File } from '../../files/utf8-text.ts'
import { readRecords } from '../../files/read-records.ts'
import type { CorpusDocument } from '../../load/corpus.ts'
import { importGoldenSet } from '../../golden/formats/golden-set-formats.ts'

export const CANDIDATE_FORMATS = ['golden', 'jsonl', 'ragas', 'trec'] as const
export type CandidateFormat = (typeof CANDIDATE_FORMATS)[number]

/** Fields this version's golden-set schema may not know yet (provenance, history): kept verbatim, never validated away. */
const CARRIED_FIELDS = ['provenance', 'history'] as const

/** One candidate as read: where it is, its object as written back, and the question, or why it is none. */
export interface Candidate {
  /** `drafts.jsonl:12`, or `golden-set.json: question #3`. */
  where: string
  /** The id, or `#<n>` (its position) when it has no usable one. */
  id: string
  /** The object as it was read, without an earlier verdict: what verified.jsonl writes back. */
  record: Record<string, unknown>
  /** The question, valid against the golden-set schema; null when it is not. */
  question: GoldenQuestion | null
  /** The schema's messages when question is null. */
  problems: string[]
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A record of the golden format, checked with the golden-set schema; an earlier verdict is dropped (verified anew). */
export function candidateOf(raw: unknown, where: string, position: number): Candidate {
  if (!isObject(raw))
    return { where, id: `#${position}`, record: { value: raw }, question: null, problems: ['expected a JSON object'] }
  const { verdict: _earlier, ...record } = raw
  const id = typeof record.id === 'string' && record.id !== '' ? record.id : `#${position}`
  const known = GoldenQuestionSchema.shape as Record<string, unknown>
  const toCheck = Object.fromEntries(
    Object.entries(record).filter(([key]) => key in known || !(CARRIED_FIELDS as readonly string[]).includes(key)),
  )
  const parsed = GoldenQuestionSchema.safeParse(toCheck)
  if (parsed.success) return { where, id, record, question: parsed.data, problems: [] }
  const problems = parsed.error.issues.map((issue) =>
    issue.code === 'unrecognized_keys'
      ? `unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}`
      : `field "${issue.path.join('.') || '(question)'}": ${issue.message}`,
  )
  return { where, id, record, question: null, problems }
}

/** The golden format: a golden-set file ({"questions": [...]}) or JSON Lines of question objects (drafts.jsonl). */
export function parseGoldenCandidates(text: string, file: string): Candidate[] {
  const trimmed = text.trim()
  if (trimmed.startsWith('{')) {
    let whole: unknown = undefined
    try {
      whole = JSON.parse(trimmed)
    } catch {
      // Not one JSON document: JSON Lines, read line by line below.
    }
    if (isObject(whole) && Array.isArray(whole.questions))
      return whole.questions.map((q, i) => candidateOf(q, `${file}: question #${i + 1}`, i + 1))
  }
  const candidates = readRecords(text, file).map((record, i) => candidateOf(record.value, `${file}:${record.line}`, i + 1))
  if (candidates.length === 0) throw new InputError(`${file}: no candidate questions`)
  return candidates
}

/** Reads candidates in any format: golden, or another tool's through the importers (whose errors stop it). */
export function readCandidates(
  file: string,
  format: CandidateFormat,
  docs: readonly CorpusDocument[],
  topics?: string,
): Candidate[] {
  if (format === 'golden') return parseGoldenCandidates(readUtf8File(file, 'name the candidate file to verify'), file)
  const { questions } = importGoldenSet(format, file, docs, { topics, allowUnknown: false })
  return questions.map((question, i) => ({
    where: `${file}: question #${i + 1}`,
    id: question.id,
    record: { ...question },
    question,
    problems: [],
  }))
}
