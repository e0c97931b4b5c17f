import type { z } from 'zod'
import { InputError } from '../../contract/input-error.ts'
import { readCsvRecords } from '../../files/read-csv.ts'
import { parseSourceRecords, readRecords, type SourceRecord } from '../../files/read-records.ts'
import { readUtf8File } from '../../files/utf8-text.ts'
import { flagOf, LogRecordSchema, type AskedQuestion } from './asked-question.ts'
import { exampleQuestion, LangSmithExampleSchema, PhoenixExampleSchema } from './dataset-exports.ts'
import { OtlpExportSchema, spanQuestions } from './otel-spans.ts'

export const PRODUCTION_FORMATS = ['auto', 'log', 'otel', 'phoenix', 'langsmith'] as const
export type ProductionFormat = (typeof PRODUCTION_FORMATS)[number]

/** The format a file's first record has: OTLP's resourceSpans, LangSmith's inputs, Phoenix's input, a log's question. */
function detect(first: unknown, file: string): Exclude<ProductionFormat, 'auto'> {
  const keys = new Set(Object.keys(typeof first === 'object' && first !== null ? first : {}))
  if (keys.has('resourceSpans')) return 'otel'
  if (keys.has('inputs')) return 'langsmith'
  if (keys.has('input') || keys.has('example_id') || [...keys].some((k) => k.startsWith('input_'))) return 'phoenix'
  if (keys.has('question')) return 'log'
  throw new InputError(
    `${file}: cannot tell its format from its first record (fields: ${[...keys].join(', ') || 'none'}); expected a log ` +
      '(question), an OTLP export (resourceSpans), a Phoenix (input) or LangSmith (inputs) dataset; or pass --format',
  )
}

/** The records of a file: CSV rows, JSON Lines, a JSON array, or one JSON document (a pretty-printed OTLP export). */
function recordsOf(text: string, file: string): SourceRecord[] {
  if (file.toLowerCase().endsWith('.csv')) return readCsvRecords(text, file)
  if (text.trimStart().startsWith('{') && text.trim().includes('\n')) {
    try {
      JSON.parse(text)
      // One document over several lines: as a one-element array, so each field keeps its line.
      return readRecords(`[${text}]`, file)
    } catch {
      // JSON Lines: read line by line below.
    }
  }
  return readRecords(text, file)
}

function parsed<S extends z.ZodType<Record<string, unknown>>>(records: readonly SourceRecord[], file: string, schema: S) {
  return parseSourceRecords(records, file, schema, []).parsed
}

/** Every question a production file holds, in file order; a record its format refuses fails the file, naming the line. */
export function readProductionFile(file: string, format: ProductionFormat): AskedQuestion[] {
  const records = recordsOf(readUtf8File(file, 'name a production log or export to harvest'), file)
  if (records.length === 0) return []
  const kind = format === 'auto' ? detect(records[0]!.value, file) : format
  if (kind === 'otel') return parsed(records, file, OtlpExportSchema).flatMap((r) => spanQuestions(r.record, r.source, file))
  if (kind === 'log')
    return parsed(records, file, LogRecordSchema).map(({ source, record: r }) => ({
      question: r.question,
      userContext: r.userContext,
      history: r.history,
      answer: r.answer ?? undefined,
      retrievedIds: r.retrievedIds,
      flag: flagOf(r.feedback, r.error),
      askedAt: r.timestamp,
      file,
      line: source.line,
    }))
  const examples = parsed(records, file, kind === 'phoenix' ? PhoenixExampleSchema : LangSmithExampleSchema)
  const questions = examples.map(({ source, record }) => exampleQuestion(record, file, source.line))
  const problems = questions.flatMap((q, i) => (typeof q === 'string' ? [`${file}:${examples[i]!.source.line}: ${q}`] : []))
  if (problems.length > 0) throw new InputError(problems.join('\n'))
  return questions as AskedQuestion[]
}
