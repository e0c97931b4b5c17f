import type { z } from 'zod'
import { InputError } from '../contract/input-error.ts'
import { jsonSyntaxMessage, parseJsonText } from './read-json-file.ts'
import { jsonSpans, lineAt, type Span } from './json-spans.ts'

/** A record of a JSON Lines file or of a JSON array, with the line it starts on. */
export interface SourceRecord {
  line: number
  value: unknown
  /** The line of a field inside the record (`['reference_contexts', 1]`); the record's line when not found. */
  lineOf: (path: readonly PropertyKey[]) => number
}

function fieldLine(text: string, span: Span, path: readonly PropertyKey[]): number {
  let at: Span | undefined = span
  for (const key of path) {
    if (at === undefined) break
    const next: Span | undefined = typeof key === 'number' ? at.elements[key] : at.members.find((m) => m.key === key)?.value
    if (next === undefined) break
    at = next
  }
  return lineAt(text, (at ?? span).start)
}

/** Records of a JSON array (first non-blank character `[`) or JSON Lines file, each with its line number for error messages. */
export function readRecords(fileText: string, file: string): SourceRecord[] {
  const text = fileText.replace(/^\uFEFF/, '')
  if (text.trimStart().startsWith('[')) {
    const data = parseJsonText(text, file)
    if (!Array.isArray(data)) throw new InputError(`${file}: expected a JSON array of records, or one JSON object per line`)
    const elements = jsonSpans(text).elements
    return data.map((value: unknown, index) => {
      const span = elements[index]!
      return { line: lineAt(text, span.start), value, lineOf: (path) => fieldLine(text, span, path) }
    })
  }
  const records: SourceRecord[] = []
  text.split(/\r?\n/).forEach((raw, index) => {
    if (raw.trim() === '') return
    try {
      records.push({ line: index + 1, value: JSON.parse(raw), lineOf: () => index + 1 })
    } catch (error) {
      throw new InputError(`${jsonSyntaxMessage(raw, file, error, index)}; expected one JSON object per line`)
    }
  })
  return records
}

/** Message for a zod issue of a record, naming the line and the field. */
export function recordIssue(file: string, record: SourceRecord, issue: { path: PropertyKey[]; message: string }): string {
  const field = issue.path.map(String).join('.')
  const key = issue.path[0]
  const value = record.value
  const absent =
    issue.path.length === 1 && typeof key === 'string' && typeof value === 'object' && value !== null && !(key in value)
  const why = absent ? 'missing' : issue.message
  return `${file}:${record.lineOf(issue.path)}: ${field === '' ? '' : `field "${field}": `}${why}`
}

/** Fields beyond the format's, counted over the file: one notice per field, not one per line. */
export class IgnoredFields {
  readonly #seen = new Map<string, { count: number; firstLine: number }>()

  add(fields: Record<string, unknown>, known: readonly string[], record: SourceRecord): void {
    for (const key of Object.keys(fields)) {
      if (known.includes(key)) continue
      const seen = this.#seen.get(key)
      if (seen) seen.count++
      else this.#seen.set(key, { count: 1, firstLine: record.lineOf([key]) })
    }
  }

  notices(file: string, why: string): string[] {
    return [...this.#seen].map(
      ([key, { count, firstLine }]) =>
        `${file}:${firstLine}: field "${key}" ignored (${count} record${count === 1 ? '' : 's'}): ${why}`,
    )
  }
}

/** Validates every record with the format's schema: all problems at once, each naming its line and field. */
export function parseRecords<S extends z.ZodType<Record<string, unknown>>>(
  text: string,
  file: string,
  schema: S,
  knownFields: readonly string[],
): { parsed: { source: SourceRecord; record: z.output<S> }[]; ignored: IgnoredFields } {
  return parseSourceRecords(readRecords(text, file), file, schema, knownFields)
}

/** parseRecords over records already read (a CSV file's rows, a JSON document's). */
export function parseSourceRecords<S extends z.ZodType<Record<string, unknown>>>(
  records: readonly SourceRecord[],
  file: string,
  schema: S,
  knownFields: readonly string[],
): { parsed: { source: SourceRecord; record: z.output<S> }[]; ignored: IgnoredFields } {
  const ignored = new IgnoredFields()
  const problems: string[] = []
  const parsed: { source: SourceRecord; record: z.output<S> }[] = []
  for (const source of records) {
    const result = schema.safeParse(source.value)
    if (!result.success) {
      problems.push(...result.error.issues.map((issue) => recordIssue(file, source, issue)))
      continue
    }
    ignored.add(result.data, knownFields, source)
    parsed.push({ source, record: result.data })
  }
  if (problems.length > 0) throw new InputError(problems.join('\n'))
  return { parsed, ignored }
}
