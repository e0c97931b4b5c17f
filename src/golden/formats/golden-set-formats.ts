import { readFileSync } from 'node:fs'
import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import type { CorpusDocument } from '../../load/corpus.ts'
import { InputError } from '../../contract/input-error.ts'
import { finishImport, type ImportResult } from './imported-question.ts'
import { exportJsonlGold, importJsonlGold } from './jsonl-gold.ts'
import { exportRagas, importRagas } from './ragas.ts'
import { exportQrels, importTrec } from './trec-qrels.ts'
import { exportTopics } from './trec-topics.ts'

export const FORMATS = ['jsonl', 'ragas', 'trec'] as const
export type FormatName = (typeof FORMATS)[number]

/** What each format cannot carry, printed by golden:import and golden:export and listed in docs/golden-set.md. */
export const NOT_CARRIED: Record<FormatName, string> = {
  jsonl: 'governingDocId, notes and relevance grades',
  ragas:
    'ids (q-001... by position), types (inferred from the answer docs: contradiction is lost), governingDocId, notes, userContext, history, provenance and relevance grades',
  trec: 'gold answers (a TODO placeholder on import), types (inferred from the relevant docs: contradiction is lost), governingDocId, notes, userContext, history and provenance',
}

/** The golden questions of a file in another tool's format (trec: its qrels and its topics), checked against the corpus. */
export function importGoldenSet(
  format: FormatName,
  file: string,
  docs: readonly CorpusDocument[],
  options: { topics?: string | undefined; allowUnknown: boolean },
): { questions: GoldenQuestion[]; warnings: string[] } {
  const text = readFileSync(file, 'utf8')
  let imported: ImportResult
  if (format === 'jsonl') imported = importJsonlGold(text, file)
  else if (format === 'ragas') imported = importRagas(text, file, docs)
  else if (options.topics === undefined)
    throw new InputError(
      '--format trec needs --topics <file>: a JSON map id -> question, TSV qid<TAB>question, or TREC <top> blocks',
    )
  else imported = importTrec(text, file, readFileSync(options.topics, 'utf8'), options.topics)
  return finishImport(imported, file, docs, { allowUnknown: options.allowUnknown })
}

/** The default topics path beside a qrels file: runs.qrels -> runs.topics.json. */
export function topicsPathFor(out: string): string {
  return `${out.replace(/\.[^./\\]+$/, '')}.topics.json`
}

/** The files a golden set exports to in `format`, each with its text (trec: the qrels in `out`, then the topics). */
export function exportGoldenSet(
  format: FormatName,
  questions: readonly GoldenQuestion[],
  docs: readonly CorpusDocument[],
  out: string,
  topics = topicsPathFor(out),
): { file: string; text: string }[] {
  if (format === 'jsonl') return [{ file: out, text: exportJsonlGold(questions) }]
  if (format === 'ragas') return [{ file: out, text: exportRagas(questions, docs, out.endsWith('.jsonl')) }]
  return [
    { file: out, text: exportQrels(questions) },
    { file: topics, text: exportTopics(questions, topics.endsWith('.tsv')) },
  ]
}

/** What `format` does not carry, with how many of the set's questions lose each field. */
export function notCarried(format: FormatName, questions: readonly GoldenQuestion[]): string {
  const count = (has: (q: GoldenQuestion) => boolean) => questions.filter(has).length
  const governed = count((q) => q.governingDocId !== undefined)
  const noted = count((q) => q.notes !== undefined)
  const graded = count((q) => q.relevance !== undefined)
  const withContext = count((q) => q.userContext !== undefined)
  const followUps = count((q) => q.history !== undefined)
  const withProvenance = count((q) => q.provenance !== undefined)
  // Only said when there is something to lose: the line for a set without them stays as it was.
  const lost = [
    graded > 0 && format !== 'trec' ? `${graded} graded` : '',
    withContext > 0 && format !== 'jsonl' ? `${withContext} userContext` : '',
    followUps > 0 && format !== 'jsonl' ? `${followUps} history` : '',
    withProvenance > 0 && format !== 'jsonl' ? `${withProvenance} provenance` : '',
  ]
    .filter(Boolean)
    .map((item) => `, ${item}`)
    .join('')
  return `${NOT_CARRIED[format]} (here: ${governed} governingDocId, ${noted} notes${lost})`
}
