import { CsvError, parse } from 'csv-parse/sync'
import { InputError } from '../contract/input-error.ts'
import type { SourceRecord } from './read-records.ts'

/** A parsed row as csv-parse gives it with `info` and `raw`. */
interface CsvRow {
  record: string[]
  info: { lines: number }
  raw: string
}

/**
 * The rows of a CSV file (RFC 4180, through csv-parse) as records of header -> field, each with the line it starts on,
 * so errors name the line a spreadsheet shows.
 */
export function readCsvRecords(fileText: string, file: string): SourceRecord[] {
  let rows: CsvRow[]
  try {
    rows = parse(fileText, {
      bom: true,
      info: true,
      raw: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
    }) as unknown as CsvRow[]
  } catch (error) {
    if (error instanceof CsvError) {
      const at = typeof error.lines === 'number' ? `:${error.lines}` : ''
      throw new InputError(`${file}${at}: ${error.message}; expected RFC 4180 CSV`)
    }
    throw error
  }
  // csv-parse counts lines up to a record's end (its raw text may keep the line break that ends it); a quoted field
  // may run over several.
  const startLine = (row: CsvRow) => row.info.lines - (row.raw.replace(/\n$/, '').match(/\n/g)?.length ?? 0)
  const [header, ...body] = rows
  if (header === undefined) throw new InputError(`${file}: empty; expected a header row, then one row per record`)
  return body.map((row) => {
    const at = startLine(row)
    if (row.record.length !== header.record.length)
      throw new InputError(`${file}:${at}: ${row.record.length} fields where the header has ${header.record.length}`)
    return { line: at, value: Object.fromEntries(header.record.map((name, i) => [name, row.record[i]!])), lineOf: () => at }
  })
}
