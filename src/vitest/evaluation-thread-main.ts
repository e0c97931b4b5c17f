// The evaluation in a worker thread of Vitest's process (started by evaluation-thread.ts) for offline and
// replay `vitest run`s: Vitest's main thread stays free to start the cases' worker and serve it while the
// evaluation runs. It answers with the shared evaluation as JSON bytes (transferred, not copied), or asks
// for a child process when the run pays for model calls (evaluation-child.ts keeps those safe).
import { parentPort, workerData } from 'node:worker_threads'
import { costsNothingInFlight, evaluateProject, failureMessage, loadEvalProject } from './evaluate-project.ts'
import type { EvaluationThreadMessage } from './evaluation-thread.ts'
import type { RagEvalProjectOptions } from './rag-eval-project.ts'
import { sharedEvaluation, type SharedEvaluation } from './shared-evaluation.ts'

async function evaluateHere(options: RagEvalProjectOptions): Promise<SharedEvaluation | 'in-a-child'> {
  try {
    const project = await loadEvalProject(options)
    if (!costsNothingInFlight(project, process.env)) return 'in-a-child'
    const evaluation = await evaluateProject(project, { role: 'run', shard: options.shard ?? null }, { log: (line) => console.log(line) })
    return sharedEvaluation(evaluation, options)
  } catch (error) {
    return { ok: false, error: `the evaluation failed: ${failureMessage(error)}` }
  }
}

function answer(outcome: SharedEvaluation | 'in-a-child'): void {
  if (outcome === 'in-a-child') return parentPort!.postMessage({ kind: 'in-a-child' } satisfies EvaluationThreadMessage)
  const json = new TextEncoder().encode(JSON.stringify(outcome))
  parentPort!.postMessage({ kind: 'evaluated', json } satisfies EvaluationThreadMessage, [json.buffer])
}

// No top-level await: jiti runs this module as CommonJS in this repository.
void evaluateHere(workerData as RagEvalProjectOptions).then(answer)
