import { readFileSync } from 'node:fs'
import { join } from 'node:path/posix'
import { parseArgs } from 'node:util'
import { InputError } from '../load/input-error.ts'
import { ReportSchema } from '../report/report-schema.ts'
import { writeFileAtomic } from '../report/write-report.ts'
import { exportReportToTrec } from '../trec/export-report.ts'
import { runCli } from './run-cli.ts'

runCli('trec:export', async () => {
  const { values } = parseArgs({
    options: { report: { type: 'string', default: 'reports/latest.json' }, out: { type: 'string', default: 'reports/trec' } },
    strict: true,
  })
  let data: unknown
  try {
    data = JSON.parse(readFileSync(values.report, 'utf8'))
  } catch (error) {
    throw new InputError(`${values.report}: cannot read the report (${(error as Error).message}); run \`pnpm eval\` first`)
  }
  const parsed = ReportSchema.safeParse(data)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new InputError(`${values.report}: not a report of this version: field "${issue.path.join('.')}": ${issue.message}`)
  }
  const { qrels, run } = exportReportToTrec(parsed.data)
  const qrelsFile = join(values.out, 'qrels.txt')
  const runFile = join(values.out, 'run.txt')
  writeFileAtomic(qrelsFile, qrels)
  writeFileAtomic(runFile, run)
  console.log(`wrote ${qrelsFile} and ${runFile}\ncheck with: pnpm trec ${qrelsFile} ${runFile}   (or trec_eval -q -m ndcg_cut.10 ${qrelsFile} ${runFile})`)
})
