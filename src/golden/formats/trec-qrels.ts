import { z } from 'zod'
import { MAX_GRADE, type GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { InputError } from '../../contract/input-error.ts'
import { judgedGrades } from '../../scoring/retrieval/graded-relevance.ts'
import { PLACEHOLDER_GOLD_ANSWER } from '../lint/placeholder-gold-answer.ts'
import type { ImportResult } from './imported-question.ts'
import { parseTopics } from './trec-topics.ts'

/**
 * One qrels line, `qid iter docno rel` (iter ignored). Grades above 1 are kept as `relevance`; 0 or below earns no
 * gain and is left out. Texts come from a topics file; what qrels cannot carry: docs/golden-set.md.
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
    if (rel > MAX_GRADE) {
      problems.push(
        `${where}: rel ${rel} is above ${MAX_GRADE}, the highest grade of a golden set (0..${MAX_GRADE}): map the grades onto 0..${MAX_GRADE} first`,
      )
      return
    }
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
  if (notRelevant > 0)
    notices.push(
      `${qrelsFile}: ${notRelevant} judgement${notRelevant === 1 ? '' : 's'} with rel <= 0 not imported: a golden set lists relevant documents only`,
    )
  const questions = topics.map((topic) => {
    const relevant = (judgements.get(topic.qid) ?? []).filter((j) => j.rel >= 1)
    // Grades only where they say more than "relevant": a 0/1 question stays ungraded, as before grades.
    const graded = relevant.some((j) => j.rel > 1)
    return {
      where: topic.where,
      id: topic.qid,
      question: topic.question,
      sources: relevant.map((j) => ({ docId: j.docno, where: j.where, field: 'docno', ...(graded ? { grade: j.rel } : {}) })),
      unmatched: [],
      ...(relevant.length > 0 ? { goldAnswer: PLACEHOLDER_GOLD_ANSWER } : {}),
    }
  })
  const placeholders = questions.filter((q) => q.goldAnswer !== undefined).length
  if (placeholders > 0) {
    notices.push(
      `${placeholders} question${placeholders === 1 ? '' : 's'} got the placeholder gold answer "${PLACEHOLDER_GOLD_ANSWER}" (qrels carry no answers): golden:check reports each until it is written`,
    )
  }
  return { questions, notices }
}

/**
 * Qrels in question order: `id 0 docId 1` per answer doc when ungraded, else each graded doc with its grade (0
 * included) in relevance order. A none question without grades has no line.
 */
export function exportQrels(questions: readonly GoldenQuestion[]): string {
  return questions.flatMap((q) => judgedGrades(q).map(([docId, grade]) => `${q.id} 0 ${docId} ${grade}\n`)).join('')
}
