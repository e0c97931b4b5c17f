import { join } from 'node:path/posix'
import { readReport } from '../report/read-report.ts'
import { writeFileAtomic } from '../files/write-file-atomic.ts'
import { exportReportToTrec } from '../trec/export-report.ts'
import { file, folderOrAbsent } from './arg-kinds.ts'
import { option } from './args.ts'
import { defineCommand } from './command.ts'

export const command = defineCommand({
  usage: `usage: rag-eval trec-export [--report reports/latest.json] [--out reports/trec]`,
  description: `  Writes a report's doc-level qrels (the golden set's answer documents, rel 1, or a graded question's
  documents with their grades) and run (each question's ranked documents) as <out>/qrels.txt and <out>/run.txt, to check the suite's metrics with trec_eval or rag-eval trec.`,
  options: {
    report: option(file, { default: 'reports/latest.json' }),
    out: option(folderOrAbsent, { default: 'reports/trec' }),
  },
  run: async ({ values, context }) => {
    const { qrels, run } = exportReportToTrec(readReport(values.report))
    const qrelsFile = join(values.out, 'qrels.txt')
    const runFile = join(values.out, 'run.txt')
    writeFileAtomic(qrelsFile, qrels)
    writeFileAtomic(runFile, run)
    context.out(
      `wrote ${qrelsFile} and ${runFile}\ncheck with: rag-eval trec ${qrelsFile} ${runFile}   (or ` +
        `trec_eval -q -m ndcg_cut.10 ${qrelsFile} ${runFile})` +
        '\n',
    )
    return 0
  },
})
