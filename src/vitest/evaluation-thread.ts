import { fileURLToPath } from 'node:url'
import { ownModuleThread } from '../support/import-module.ts'
import type { RagEvalProjectOptions } from './rag-eval-project.ts'
import type { ReportedEvaluation, SharedEvaluation } from './shared-evaluation.ts'

/**
 * What the evaluation's thread says: the shared evaluation as JSON (UTF-8), then, when it writes the
 * run's reports (`writing`), whether that worked; or that the run belongs in a child process.
 */
export type EvaluationThreadMessage = { kind: 'evaluated'; json: Uint8Array; reported: ReportedEvaluation; writing: boolean } | { kind: 'reports'; error: string | null } | { kind: 'in-a-child' }

/** An evaluation handed over before its reports are written: `reportsWritten` settles with null once they are, or why they are not. */
export interface HandedOver {
  evaluation: Uint8Array | SharedEvaluation
  /** What the reporter prints of it. */
  reported: ReportedEvaluation
  reportsWritten: Promise<string | null>
}

const THREAD = fileURLToPath(new URL(`./evaluation-thread-main.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url))

/**
 * Evaluates the project in a worker thread (evaluation-thread-main.ts): the shared evaluation as JSON
 * bytes (or a failure) as soon as it is measured, or 'in-a-child' when the run pays for model calls (live,
 * record), which run in a child process instead. A thread that dies without answering is a failed
 * evaluation; one that dies before it has written the reports, a failure to write them.
 */
export function evaluateInThread(options: RagEvalProjectOptions): Promise<HandedOver | 'in-a-child'> {
  return new Promise((resolve) => {
    let failure: string | null = null
    let reports: (error: string | null) => void = () => {}
    const reportsWritten = new Promise<string | null>((settle) => (reports = settle))
    const thread = ownModuleThread(THREAD, options)
    thread.on('message', (message: EvaluationThreadMessage) => {
      if (message.kind === 'in-a-child') resolve('in-a-child')
      else if (message.kind === 'reports') reports(message.error)
      else {
        if (!message.writing) reports(null)
        resolve({ evaluation: message.json, reported: message.reported, reportsWritten })
      }
    })
    thread.on('error', (error) => (failure = error.stack ?? error.message))
    thread.on('exit', (code) => {
      const why = `the evaluation's thread ${failure === null ? `exited with code ${code}` : `failed: ${failure}`}`
      // Each settles once: whatever the thread already said stands.
      const failed = { ok: false as const, error: `${why} before it answered` }
      resolve({ evaluation: failed, reported: failed, reportsWritten: Promise.resolve(null) })
      reports(`the reports were not written: ${why}`)
    })
  })
}
