// The evaluation in a worker thread of Vitest's process (started by evaluation-thread.ts) for offline and
// replay `vitest run`s: Vitest's main thread stays free to start the cases' worker and serve it while the
// evaluation runs. It hands over the shared evaluation as JSON bytes (transferred, not copied) before it
// writes the reports, so the cases run while the files are written; or it asks for a child process when
// the run pays for model calls (evaluation-child.ts keeps those safe).
import type { TransferListItem } from 'node:worker_threads'
import { parentPort } from 'node:worker_threads'
import { serialisedReport, writeLatestJson, writeReportCompanions } from '../report/write-report.ts'
import {
  costsNothingInFlight,
  failureMessage,
  loadEvalProject,
  measureProject,
  type MeasuredProject,
} from './evaluate-project.ts'
import type { EvaluationThreadMessage } from './evaluation-thread.ts'
import type { RagEvalProjectOptions } from './rag-eval-project.ts'
import { reportedRun, sharedEvaluationJson, type SharedEvaluation } from './shared-evaluation.ts'

const post = (message: EvaluationThreadMessage, transfer: TransferListItem[] = []) => parentPort!.postMessage(message, transfer)

async function evaluateHere(options: RagEvalProjectOptions): Promise<void> {
  let measured: MeasuredProject
  try {
    const project = await loadEvalProject(options)
    if (!costsNothingInFlight(project, process.env)) return post({ kind: 'in-a-child' })
    measured = await measureProject(project, { role: 'run', shard: options.shard ?? null }, { log: (line) => console.log(line) })
  } catch (error) {
    const failed = { ok: false as const, error: `the evaluation failed: ${failureMessage(error)}` }
    return post({
      kind: 'evaluated',
      json: [new TextEncoder().encode(JSON.stringify(failed satisfies SharedEvaluation))],
      reported: failed,
      writing: false,
    })
  }
  const { report, writesReports, evaluation } = measured
  // Serialised once, straight to UTF-8 pieces: latest.json's bytes are also what the cases receive.
  // latest.json is written before they are handed over, the other reports after.
  const reportJson = serialisedReport(report)
  let unwritten: string | null = null
  const write = (files: () => unknown) => {
    try {
      if (unwritten === null) files()
    } catch (error) {
      // A file system error names its path.
      unwritten = `the reports could not be written: ${error instanceof Error ? error.message : String(error)}`
    }
  }
  if (writesReports) write(() => writeLatestJson(evaluation.reportsDir, reportJson))
  const reported = reportedRun(
    { ...evaluation, ...(options.shard ? { shard: options.shard } : {}) },
    report.questions.length,
    null,
  )
  post(
    { kind: 'evaluated', json: sharedEvaluationJson(evaluation, reportJson, options), reported, writing: writesReports },
    reportJson.map((piece) => piece.buffer as ArrayBuffer),
  )
  if (!writesReports) return
  write(() => writeReportCompanions(report, evaluation.reportsDir))
  post({ kind: 'reports', error: unwritten })
}

// Started ahead of need (while Vitest starts up, its modules loading meanwhile), the thread evaluates
// when the global setup sends the options. No top-level await: jiti runs this module as CommonJS here.
parentPort!.once('message', (options: RagEvalProjectOptions) => void evaluateHere(options))
