import { fork } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { WORKER_ENV, WorkerMessageSchema, type WorkerMessage } from './evaluation-protocol.ts'
import type { RagEvalProjectOptions } from './rag-eval-project.ts'
import { sharedEvaluation, type SharedEvaluation } from './shared-evaluation.ts'

// The worker beside this file: TypeScript in this repository (run through tsx), compiled JavaScript in the package.
const WORKER = fileURLToPath(new URL(`./evaluation-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url))

/**
 * Runs the evaluation once, in a child process (live and record runs, so a Vitest killed mid-run loses
 * no model call already paid for; watch mode, so every run measures the current code), and receives its
 * report over the IPC channel, tagged with this run's id: a report file left by an earlier run can never
 * stand in for this one, and a child that ends without sending its report is a failed evaluation. The
 * child runs without GATE: the cases decide.
 */
export function runEvaluation(
  options: RagEvalProjectOptions,
  worker: string = WORKER,
  role: 'run' | 'compare' = 'run',
): Promise<SharedEvaluation> {
  const runId = randomUUID()
  const child = fork(worker, [], {
    execArgv: worker.endsWith('.ts') ? ['--import', 'tsx'] : [],
    env: {
      ...process.env,
      [WORKER_ENV.runId]: runId,
      [WORKER_ENV.configFile]: options.config ?? process.env.RAG_EVAL_CONFIG ?? '',
      [WORKER_ENV.inline]: options.inline ? JSON.stringify(options.inline) : '',
      [WORKER_ENV.role]: role,
      [WORKER_ENV.shard]: options.shard ? `${options.shard.index}/${options.shard.count}` : '',
    },
    // Progress lines (a live run's cost estimate, batch polls) show as they come; stderr is kept for the failure message.
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  })
  // Vitest stopped by a signal: the child stops too (it also notices the closed channel when Vitest is killed outright).
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal)
  const onTerm = forward('SIGTERM')
  const onInt = forward('SIGINT')
  process.once('SIGTERM', onTerm)
  process.once('SIGINT', onInt)
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-8000)))
  let message: WorkerMessage | null = null
  let invalid: string | null = null
  child.on('message', (raw) => {
    const parsed = WorkerMessageSchema.safeParse(raw)
    if (!parsed.success)
      invalid = `the evaluation worker sent a malformed message (${parsed.error.issues[0]?.message ?? 'unknown'})`
    else if (parsed.data.runId !== runId)
      invalid = `the evaluation worker answered for run ${parsed.data.runId}, not this run ${runId}`
    else message = parsed.data
  })
  return new Promise((resolve) => {
    const finish = (evaluation: SharedEvaluation) => {
      process.removeListener('SIGTERM', onTerm)
      process.removeListener('SIGINT', onInt)
      resolve(evaluation)
    }
    child.on('error', (error) => finish({ ok: false, error: `the evaluation could not start: ${error.message}` }))
    child.on('exit', (code, signal) => {
      const received = message as WorkerMessage | null
      if (invalid !== null) return finish({ ok: false, error: invalid })
      if (received?.type === 'failed') return finish({ ok: false, error: `the evaluation failed: ${received.error}` })
      if (received?.type === 'report' && code === 0) {
        const { report, terminalSummary, reportsDir, baselineRoot, projectRoot } = received
        return finish(sharedEvaluation({ report, terminalSummary, reportsDir, baselineRoot, projectRoot }, options))
      }
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`
      const detail = stderr.trim() ? `: ${stderr.trim()}` : ''
      finish({ ok: false, error: `the evaluation ${how} without sending its report${detail}` })
    })
  })
}
