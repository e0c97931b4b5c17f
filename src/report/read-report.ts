import { readJsonFile } from '../files/read-json-file.ts'
import { ReportSchema, type Report } from '../contract/report-schema.ts'

/** Reads and validates a report written by `pnpm eval` (reports/latest.json by default). */
export function readReport(file: string): Report {
  return readJsonFile(
    file,
    ReportSchema,
    'run the evaluation (`vitest run --project eval` or `rag-eval eval`) to write a report of this version',
  )
}
