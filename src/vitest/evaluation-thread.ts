import { fileURLToPath } from 'node:url'
import type { Worker } from 'node:worker_threads'
import { ownModuleThread } from '../threads/own-module-thread.ts'
import type { RagEvalProjectOptions } from './rag-eval-project.ts'
import type { EvaluationJson, ReportedEvaluation, SharedEvaluation } from './shared-evaluation.ts'

/**
 * What the evaluation's thread says: the shared evaluation as JSON (UTF-8, in pieces), then, when it writes the
 * run's reports (`writing`), whether that worked; or that the run belongs in a child process.
 */
export type EvaluationThreadMessage =
  | { kind: 'evaluated'; json: EvaluationJson; reported: ReportedEvaluation; writing: boolean }
  | { kind: 'reports'; error: string | null }
  | { kind: 'in-a-child' }

/** An evaluation handed over before its reports are written: `reportsWritten` settles with null once they are, or why they are not. */
export interface HandedOver {
  evaluation: EvaluationJson | SharedEvaluation
  /** What the reporter prints of it. */
  reported: ReportedEvaluation
  reportsWritten: Promise<string | null>
}

const THREAD = fileURLToPath(
  new URL(`./evaluation-thread-main.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url),
)

/** A started thread, with what it said before anyone listened: it posts nothing until it has its options, but may fail to load. */
interface StartedThread {
  worker: Worker
  failure: string | null
  exitCode: number | null
}

function startThread(): StartedThread {
  const started: StartedThread = { worker: ownModuleThread(THREAD), failure: null, exitCode: null }
  started.worker.on('error', (error) => (started.failure = error.stack ?? error.message))
  started.worker.on('exit', (code) => (started.exitCode = code))
  return started
}

/** Process-wide: Vitest's config (its own module instance of this file) starts the thread, the global setup's takes it. */
const PREWARMED = Symbol.for('rag-vitest-eval/prewarmed-evaluation-thread')
const registry = globalThis as unknown as Record<symbol, StartedThread | undefined>

/**
 * Starts the evaluation's thread while Vitest starts up (the eval project's plugin): it loads the
 * evaluation's modules, then waits for its options, which the global setup sends when the run has cases
 * of the eval project. Unreferenced, so a run that never evaluates (a file filter that leaves out the
 * eval project's cases) is not held open by it; `discardPrewarmedThread` stops it when Vitest closes.
 */
export function prewarmEvaluationThread(): void {
  if (registry[PREWARMED]) return
  const started = startThread()
  started.worker.unref()
  registry[PREWARMED] = started
}

/** Stops a prewarmed thread no run took. */
export async function discardPrewarmedThread(): Promise<void> {
  const started = registry[PREWARMED]
  registry[PREWARMED] = undefined
  await started?.worker.terminate()
}

function takeThread(): StartedThread {
  const started = registry[PREWARMED]
  registry[PREWARMED] = undefined
  if (!started) return startThread()
  started.worker.ref()
  return started
}

/**
 * Evaluates the project in a worker thread (evaluation-thread-main.ts; the prewarmed one if there is
 * one): the shared evaluation as JSON bytes (or a failure) as soon as it is measured, or 'in-a-child'
 * when the run pays for model calls (live, record), which run in a child process instead. A thread that
 * dies without answering is a failed evaluation; one that dies before it has written the reports, a
 * failure to write them.
 */
export function evaluateInThread(options: RagEvalProjectOptions): Promise<HandedOver | 'in-a-child'> {
  return new Promise((resolve) => {
    let reports: (error: string | null) => void = () => {}
    const reportsWritten = new Promise<string | null>((settle) => (reports = settle))
    const thread = takeThread()
    const ended = (code: number | null) => {
      const why = `the evaluation's thread ${thread.failure === null ? `exited with code ${code}` : `failed: ${thread.failure}`}`
      // Each settles once: whatever the thread already said stands.
      const failed = { ok: false as const, error: `${why} before it answered` }
      resolve({ evaluation: failed, reported: failed, reportsWritten: Promise.resolve(null) })
      reports(`the reports were not written: ${why}`)
    }
    if (thread.exitCode !== null) return ended(thread.exitCode)
    thread.worker.on('message', (message: EvaluationThreadMessage) => {
      if (message.kind === 'in-a-child') resolve('in-a-child')
      else if (message.kind === 'reports') reports(message.error)
      else {
        if (!message.writing) reports(null)
        resolve({ evaluation: message.json, reported: message.reported, reportsWritten })
      }
    })
    thread.worker.on('exit', ended)
    thread.worker.postMessage(options)
  })
}
