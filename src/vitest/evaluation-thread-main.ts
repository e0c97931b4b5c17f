// The evaluation in a worker thread of Vitest's process (started by evaluation-thread.ts) for offline and
// replay `vitest run`s: Vitest's main thread stays free to start the cases' worker and serve it while the
// evaluation runs. It hands over the shared evaluation as JSON bytes (transferred, not copied) before it
// writes the reports, so the cases run while the files are written; or it asks for a child process when
// the run pays for model calls (evaluation-child.ts keeps those safe).
import type { TransferListItem } from 'node:worker_threads'
import { parentPort } from 'node:worker_threads'
import { serialiseReport, writeReports } from '../report/write-report.ts'
import { costsNothingInFlight, failureMessage, loadEvalProject, measureProject } from './evaluate-project.ts'
import type { EvaluationThreadMessage } from './evaluation-thread.ts'
import type { RagEvalProjectOptions } from './rag-eval-project.ts'
import { sharedEvaluationJson, type SharedEvaluation } from './shared-evaluation.ts'

const post = (message: EvaluationThreadMessage, transfer: TransferListItem[] = []) => parentPort!.postMessage(message, transfer)

async function evaluateHere(options: RagEvalProjectOptions): Promise<void> {
  let measured: Awaited<ReturnType<typeof measureProject>>
  try {
    const project = await loadEvalProject(options)
    if (!costsNothingInFlight(project, process.env)) return post({ kind: 'in-a-child' })
    measured = await measureProject(project, { role: 'run', shard: options.shard ?? null }, { log: (line) => console.log(line) })
  } catch (error) {
    const failed = { ok: false as const, error: `the evaluation failed: ${failureMessage(error)}` }
    const json = new TextEncoder().encode(JSON.stringify(failed satisfies SharedEvaluation))
    return post({ kind: 'evaluated', json, reported: failed, writing: false }, [json.buffer])
  }
  const { report, writesReports, evaluation } = measured
  // Serialised once: latest.json's text is also what the cases receive.
  const reportJson = serialiseReport(report)
  const json = sharedEvaluationJson(evaluation, reportJson, options)
  const { reportsDir, terminalSummary } = evaluation
  const reported = { ok: true as const, reportsDir, terminalSummary, questions: report.questions.length, ...(options.shard ? { shard: options.shard } : {}), report: null }
  post({ kind: 'evaluated', json, reported, writing: writesReports }, [json.buffer])
  if (!writesReports) return
  try {
    writeReports(report, evaluation.reportsDir, reportJson)
    post({ kind: 'reports', error: null })
  } catch (error) {
    // A file system error names its path.
    post({ kind: 'reports', error: `the reports could not be written: ${error instanceof Error ? error.message : String(error)}` })
  }
}

// Started ahead of need (while Vitest starts up, its modules loading meanwhile), the thread evaluates
// when the global setup sends the options. No top-level await: jiti runs this module as CommonJS here.
parentPort!.once('message', (options: RagEvalProjectOptions) => void evaluateHere(options))
