import { join } from 'node:path/posix'
import { parseArgs } from 'node:util'
import { readReport } from '../report/read-report.ts'
import { writeFileAtomic } from '../report/write-report.ts'
import { exportReportToTrec } from '../trec/export-report.ts'
import { runCli } from './run-cli.ts'

runCli('trec:export', async () => {
  const { values } = parseArgs({
    options: { report: { type: 'string', default: 'reports/latest.json' }, out: { type: 'string', default: 'reports/trec' } },
    strict: true,
  })
  const { qrels, run } = exportReportToTrec(readReport(values.report))
  const qrelsFile = join(values.out, 'qrels.txt')
  const runFile = join(values.out, 'run.txt')
  writeFileAtomic(qrelsFile, qrels)
  writeFileAtomic(runFile, run)
  console.log(`wrote ${qrelsFile} and ${runFile}\ncheck with: pnpm trec ${qrelsFile} ${runFile}   (or trec_eval -q -m ndcg_cut.10 ${qrelsFile} ${runFile})`)
})
