import { z } from 'zod'
import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { InputError } from '../../contract/input-error.ts'
import { PLACEHOLDER_GOLD_ANSWER } from '../lint/placeholder-gold-answer.ts'
import type { ImportResult } from './imported-question.ts'
import { parseTopics } from './trec-topics.ts'

/**
 * One qrels line, `qid iter docno rel` (whitespace separated; iter is ignored, usually 0; rel an
 * integer grade, >= 1 relevant).
 *
 * TREC qrels carry question ids and relevant documents; the question texts come from a topics file
 * (trec-topics.ts). They cannot carry gold answers (imported answerable questions get a placeholder
 * that golden:check reports until it is written), types (inferred: no relevant document none, one
 * single, several multi), graded relevance (rel 2 and rel 1 both become an answer doc), governingDocId
 * or notes. A none question is a topic without a relevant document.
 */
export const QrelsLineSchema = z.tuple(
  [
    z.string().min(1),
    z.string().min(1),
    z.string().min(1),
    z
      .string()
      .regex(/^[+-]?\d+$/, 'rel is not an integer (expected a relevance grade such as 0, 1, 2)')
      .transform(Number),
  ],
  { error: 'expected 4 whitespace-separated fields "qid iter docno rel"' },
)

interface Judgement {
  docno: string
  rel: number
  where: string
}

function readQrels(text: string, file: string): Map<string, Judgement[]> {
  const byQuery = new Map<string, Judgement[]>()
  const problems: string[] = []
  text.split(/\r?\n/).forEach((raw, index) => {
    const fields = raw
      .trim()
      .split(/\s+/)
      .filter((field) => field !== '')
    if (fields.length === 0) return
    const where = `${file}:${index + 1}`
    if (fields.length !== 4) {
      problems.push(`${where}: expected 4 whitespace-separated fields "qid iter docno rel", found ${fields.length}`)
      return
    }
    const parsed = QrelsLineSchema.safeParse(fields)
    if (!parsed.success) {
      problems.push(`${where}: ${parsed.error.issues[0]!.message} (got ${JSON.stringify(fields[3])})`)
      return
    }
    const [qid, , docno, rel] = parsed.data
    const judgements = byQuery.get(qid) ?? []
    const earlier = judgements.find((j) => j.docno === docno)
    if (earlier)
      problems.push(
        `${where}: docno ${JSON.stringify(docno)} is judged twice for query ${JSON.stringify(qid)} (first at ${earlier.where})`,
      )
    judgements.push({ docno, rel, where })
    byQuery.set(qid, judgements)
  })
  if (problems.length > 0) throw new InputError(problems.join('\n'))
  return byQuery
}

/** Reads TREC qrels and their topics into questions, in topics order; every problem names its file and line. */
export function importTrec(qrelsText: string, qrelsFile: string, topicsText: string, topicsFile: string): ImportResult {
  const topics = parseTopics(topicsText, topicsFile)
  const judgements = readQrels(qrelsText, qrelsFile)
  const known = new Set(topics.map((t) => t.qid))
  const missing = [...judgements].filter(([qid]) => !known.has(qid))
  if (missing.length > 0) {
    throw new InputError(
      missing.map(([qid, js]) => `${js[0]!.where}: query ${JSON.stringify(qid)} has no question in ${topicsFile}`).join('\n'),
    )
  }
  const notices: string[] = []
  const all = [...judgements.values()].flat()
  const notRelevant = all.filter((j) => j.rel <= 0).length
  const graded = all.filter((j) => j.rel > 1).length
  if (notRelevant > 0)
    notices.push(
      `${qrelsFile}: ${notRelevant} judgement${notRelevant === 1 ? '' : 's'} with rel <= 0 not imported: ` +
        `a golden set lists relevant documents only`,
    )
  if (graded > 0)
    notices.push(
      `${qrelsFile}: ${graded} judgement${graded === 1 ? '' : 's'} with rel >= 2 imported as plain answer ` +
        `docs: a golden set has no relevance grades`,
    )
  const questions = topics.map((topic) => {
    const relevant = (judgements.get(topic.qid) ?? []).filter((j) => j.rel >= 1)
    return {
      where: topic.where,
      id: topic.qid,
      question: topic.question,
      sources: relevant.map((j) => ({ docId: j.docno, where: j.where, field: 'docno' })),
      unmatched: [],
      ...(relevant.length > 0 ? { goldAnswer: PLACEHOLDER_GOLD_ANSWER } : {}),
    }
  })
  const placeholders = questions.filter((q) => q.goldAnswer !== undefined).length
  if (placeholders > 0) {
    notices.push(
      `${placeholders} question${placeholders === 1 ? '' : 's'} got the placeholder gold answer ` +
        `"${PLACEHOLDER_GOLD_ANSWER}" (qrels carry no answers): golden:check reports each until it is written`,
    )
  }
  return { questions, notices }
}

/** Qrels of questions: `id 0 docId 1` per answer doc, in question order; none questions have no line. */
export function exportQrels(questions: readonly GoldenQuestion[]): string {
  return questions.flatMap((q) => q.answerDocIds.map((docId) => `${q.id} 0 ${docId} 1\n`)).join('')
}
