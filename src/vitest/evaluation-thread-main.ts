// The evaluation in a worker thread of Vitest's process (started by evaluation-thread.ts) for offline and
// replay `vitest run`s: Vitest's main thread stays free to start the cases' worker and serve it while the
// evaluation runs. It answers with the shared evaluation as JSON bytes (transferred, not copied), or asks
// for a child process when the run pays for model calls (evaluation-child.ts keeps those safe).
import { parentPort, workerData } from 'node:worker_threads'
import { serialiseReport, writeReports } from '../report/write-report.ts'
import { costsNothingInFlight, failureMessage, loadEvalProject, measureProject } from './evaluate-project.ts'
import type { EvaluationThreadMessage } from './evaluation-thread.ts'
import type { RagEvalProjectOptions } from './rag-eval-project.ts'
import { sharedEvaluationJson, type SharedEvaluation } from './shared-evaluation.ts'

/** The shared evaluation as JSON, or 'in-a-child'. The report is serialised once: latest.json's text is also what the cases receive. */
async function evaluateHere(options: RagEvalProjectOptions): Promise<Uint8Array<ArrayBuffer> | 'in-a-child'> {
  try {
    const project = await loadEvalProject(options)
    if (!costsNothingInFlight(project, process.env)) return 'in-a-child'
    const { report, writesReports, evaluation } = await measureProject(project, { role: 'run', shard: options.shard ?? null }, { log: (line) => console.log(line) })
    const reportJson = serialiseReport(report)
    if (writesReports) writeReports(report, evaluation.reportsDir, reportJson)
    return sharedEvaluationJson(evaluation, reportJson, options)
  } catch (error) {
    return new TextEncoder().encode(JSON.stringify({ ok: false, error: `the evaluation failed: ${failureMessage(error)}` } satisfies SharedEvaluation))
  }
}

function answer(outcome: Uint8Array<ArrayBuffer> | 'in-a-child'): void {
  if (outcome === 'in-a-child') return parentPort!.postMessage({ kind: 'in-a-child' } satisfies EvaluationThreadMessage)
  parentPort!.postMessage({ kind: 'evaluated', json: outcome } satisfies EvaluationThreadMessage, [outcome.buffer])
}

// No top-level await: jiti runs this module as CommonJS in this repository.
void evaluateHere(workerData as RagEvalProjectOptions).then(answer)
