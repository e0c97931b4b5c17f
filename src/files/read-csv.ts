import { InputError } from '../contract/input-error.ts'
import type { SourceRecord } from './read-records.ts'

/**
 * The rows of a CSV file (RFC 4180: a header row, fields quoted with "" for a quote, line breaks inside quotes) as
 * records of header -> field, each with the line it starts on, so errors name the line a spreadsheet shows.
 */
export function readCsvRecords(fileText: string, file: string): SourceRecord[] {
  const text = fileText.replace(/^\uFEFF/, '')
  const rows: { line: number; fields: string[] }[] = []
  let fields: string[] = []
  let field = ''
  let quoted = false
  let line = 1
  let rowLine = 1
  const endRow = () => {
    fields.push(field)
    if (fields.some((f) => f !== '')) rows.push({ line: rowLine, fields })
    fields = []
    field = ''
  }
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!
    if (char === '\n') line++
    if (quoted) {
      if (char !== '"') field += char
      else if (text[i + 1] === '"') field += text[++i]
      else quoted = false
    } else if (char === '"' && field === '') quoted = true
    else if (char === ',') {
      fields.push(field)
      field = ''
    } else if (char === '\n' || (char === '\r' && text[i + 1] !== '\n')) {
      endRow()
      rowLine = char === '\r' ? ++line : line
    } else if (char !== '\r') field += char
  }
  if (quoted) throw new InputError(`${file}:${rowLine}: a quoted field is not closed; expected a closing "`)
  endRow()
  const [header, ...body] = rows
  if (header === undefined) throw new InputError(`${file}: empty; expected a header row, then one row per record`)
  return body.map(({ line: at, fields: values }) => {
    if (values.length !== header.fields.length)
      throw new InputError(`${file}:${at}: ${values.length} fields where the header has ${header.fields.length}`)
    return { line: at, value: Object.fromEntries(header.fields.map((name, i) => [name, values[i]!])), lineOf: () => at }
  })
}
