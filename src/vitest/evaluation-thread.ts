import { fileURLToPath } from 'node:url'
import { ownModuleThread } from '../support/import-module.ts'
import type { RagEvalProjectOptions } from './rag-eval-project.ts'
import type { SharedEvaluation } from './shared-evaluation.ts'

/** What the evaluation's thread answers: the shared evaluation as JSON (UTF-8), or that the run belongs in a child process. */
export type EvaluationThreadMessage = { kind: 'evaluated'; json: Uint8Array } | { kind: 'in-a-child' }

const THREAD = fileURLToPath(new URL(`./evaluation-thread-main.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url))

/**
 * Evaluates the project in a worker thread (evaluation-thread-main.ts): the shared evaluation as JSON
 * bytes, a failure, or 'in-a-child' when the run pays for model calls (live, record), which run in a
 * child process instead. A thread that dies without answering is a failed evaluation.
 */
export function evaluateInThread(options: RagEvalProjectOptions): Promise<Uint8Array | SharedEvaluation | 'in-a-child'> {
  return new Promise((resolve) => {
    let answer: EvaluationThreadMessage | null = null
    let failure: string | null = null
    const thread = ownModuleThread(THREAD, options)
    thread.on('message', (message: EvaluationThreadMessage) => (answer = message))
    thread.on('error', (error) => (failure = error.stack ?? error.message))
    thread.on('exit', (code) => {
      const received = answer as EvaluationThreadMessage | null
      if (received?.kind === 'evaluated') resolve(received.json)
      else if (received?.kind === 'in-a-child') resolve('in-a-child')
      else resolve({ ok: false, error: `the evaluation failed: ${failure ?? `its thread exited with code ${code} without an answer`}` })
    })
  })
}
