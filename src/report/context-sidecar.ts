import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { readRecords, recordIssue } from '../files/read-records.ts'
import { InputError } from '../contract/input-error.ts'
import type { Report } from '../contract/report-schema.ts'

/** The sidecar's name, beside latest.json in the reports folder. */
export const CONTEXTS_FILE = 'contexts.jsonl'

/** One line of contexts.jsonl: a question's context chunks with their text, in packing order, kept out of latest.json. */
export const ContextRecordSchema = z
  .object({
    id: z.string().min(1),
    context: z.array(z.object({ chunkId: z.string(), docId: z.string(), text: z.string() }).strict()),
  })
  .strict()
export type ContextRecord = z.infer<typeof ContextRecordSchema>

/** The report's context texts as sidecar lines, one per question; null when the report carries none (read from disk). */
export function contextRecords(report: Report): string | null {
  if (!report.questions.some((q) => q.context.some((entry) => entry.text !== undefined))) return null
  return report.questions
    .map(
      (q) =>
        JSON.stringify({
          id: q.id,
          context: q.context.map(({ chunkId, docId, text }) => ({ chunkId, docId, text: text ?? '' })),
        }) + '\n',
    )
    .join('')
}

/** The report as latest.json holds it: every context entry without its text, no question with its prompt. */
export function withoutContextTexts(report: Report): Report {
  return {
    ...report,
    questions: report.questions.map(({ prompt: _prompt, ...q }) => ({
      ...q,
      context: q.context.map(({ text: _, ...entry }) => entry),
    })),
  }
}

/** Reads contexts.jsonl: each question's context by id; a bad line names the file, line and field. */
export function readContextRecords(file: string, hint: string): Map<string, ContextRecord['context']> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    throw new InputError(`${file}: not found; ${hint}`)
  }
  const contexts = new Map<string, ContextRecord['context']>()
  for (const record of readRecords(text, file)) {
    const parsed = ContextRecordSchema.safeParse(record.value)
    if (!parsed.success) throw new InputError(`${recordIssue(file, record, parsed.error.issues[0]!)}; ${hint}`)
    contexts.set(parsed.data.id, parsed.data.context)
  }
  return contexts
}
