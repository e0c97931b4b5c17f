import { fork } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import type { RagEvalProjectOptions } from './rag-eval-project.ts'
import type { SharedRun } from './shared-run.ts'
import { threadBundle } from '../threads/thread-bundle.ts'

/** What the host is asked: which project, whether it is the B side of EVAL_COMPARE, and where to put the report. */
export interface EvaluationRequest {
  /** Tags the answer: an answer for another run is refused. */
  runId: string
  options: RagEvalProjectOptions
  /** 'compare': measured only (no baseline, no reports written). */
  role: 'run' | 'compare'
  /** Where the host writes the measured report (latest.json's bytes), before it answers. */
  reportFile: string
}

/** The run without its report (that is in the request's `reportFile`) once measured; then whether writing reports worked. */
export type EvaluationHostMessage =
  | { kind: 'evaluated'; runId: string; run: SharedRun<null>; writing: boolean }
  | { kind: 'reports'; runId: string; error: string | null }

/** A measured run, handed over before its reports are written: `reportsWritten` settles with null once they are, or why not. */
export interface Evaluated {
  run: SharedRun<null>
  reportsWritten: Promise<string | null>
}

const EXT = import.meta.url.endsWith('.ts') ? 'ts' : 'js'
/** The host's one entry module. */
export const EVALUATION_HOST_MAIN = fileURLToPath(new URL(`./evaluation-host-main.${EXT}`, import.meta.url))

/**
 * Evaluates in a fresh child process per run, so a watch-mode rerun measures the current code; a Vitest killed
 * mid-run closes the IPC channel, and the child lets paid calls in flight land in the cache before exiting.
 */
export function evaluateInChild(
  request: Omit<EvaluationRequest, 'runId'>,
  entry: string = EVALUATION_HOST_MAIN,
): Promise<Evaluated> {
  const runId = randomUUID()
  const file = threadBundle(entry) ?? entry
  const child = fork(file, [], {
    execArgv: file.endsWith('.ts') ? ['--import', 'tsx'] : [],
    // Progress and a started service's lines show live; the end of stderr is kept for the failure message.
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk)
    stderr = (stderr + chunk.toString()).slice(-8000)
  })
  // Vitest stopped by a signal: the child stops too (it also notices the closed channel when Vitest is killed outright).
  const onTerm = () => child.kill('SIGTERM')
  const onInt = () => child.kill('SIGINT')
  process.once('SIGTERM', onTerm)
  process.once('SIGINT', onInt)
  return new Promise((resolve) => {
    let reports: (error: string | null) => void = () => {}
    const reportsWritten = new Promise<string | null>((settle) => (reports = settle))
    // Each settles once: whatever the host already said stands.
    const fail = (error: string) => resolve({ run: { ok: false, error }, reportsWritten: Promise.resolve(null) })
    let ended = false
    const end = (how: string) => {
      if (ended) return
      ended = true
      process.removeListener('SIGTERM', onTerm)
      process.removeListener('SIGINT', onInt)
      const said = stderr.trim() ? `${how}: ${stderr.trim()}` : how
      fail(`${said} without sending its evaluation`)
      reports(`the reports were not written: ${said}`)
    }
    child.on('message', (raw) => {
      const message = raw as EvaluationHostMessage
      if (message.runId !== runId) return fail(`the evaluation answered for run ${String(message.runId)}, not this run ${runId}`)
      if (message.kind === 'reports') return reports(message.error)
      if (!message.writing) reports(null)
      resolve({ run: message.run, reportsWritten })
    })
    child.on('error', (error) => end(`the evaluation could not start: ${error.message}`))
    // 'close': stderr has been read to its end.
    child.on('close', (code, signal) => end(`the evaluation ${signal ? `was killed by ${signal}` : `exited with code ${code}`}`))
    child.send({ ...request, runId } satisfies EvaluationRequest)
  })
}
