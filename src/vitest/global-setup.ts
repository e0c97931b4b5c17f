import { fork } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'
import { baselineDirFor, baselineFromReport, writeBaseline } from '../gate/baseline-files.ts'
import { evaluateGate } from '../gate/gate.ts'
import { writeReports } from '../report/write-report.ts'
import { compareReports } from '../compare/compare-reports.ts'
import { writeComparison } from '../compare/write-comparison.ts'
import { InputError } from '../load/input-error.ts'
import { displayPath } from '../project/project-config.ts'
import { WORKER_ENV, WorkerMessageSchema, type WorkerMessage } from './evaluation-protocol.ts'
import type { RagEvalProjectOptions } from './rag-eval-project.ts'
import type { SharedComparison, SharedEvaluation } from './shared-evaluation.ts'

// The worker beside this file: TypeScript in this repository (run through tsx), compiled JavaScript in the package.
const WORKER = fileURLToPath(new URL(`./evaluation-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url))

/**
 * Runs the evaluation once, in a child process (so watch mode always measures the current code of the
 * system, the corpus and the golden set), and receives its report over the IPC channel, tagged with this
 * run's id: a report file left by an earlier run can never stand in for this one, and a child that ends
 * without sending its report is a failed evaluation. The child runs without GATE: the cases decide.
 */
export function runEvaluation(options: RagEvalProjectOptions, worker: string = WORKER, role: 'run' | 'compare' = 'run'): Promise<SharedEvaluation> {
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
    if (!parsed.success) invalid = `the evaluation worker sent a malformed message (${parsed.error.issues[0]?.message ?? 'unknown'})`
    else if (parsed.data.runId !== runId) invalid = `the evaluation worker answered for run ${parsed.data.runId}, not this run ${runId}`
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
        return finish({
          ok: true,
          report: received.report,
          reportsDir: received.reportsDir,
          baselineRoot: received.baselineRoot,
          projectRoot: received.projectRoot,
          // A shard never gates: its questions are a part of the golden set; the merge gates the whole.
          gate: process.env.GATE === '1' && !options.shard,
          strict: process.env.EVAL_STRICT === '1',
          baselineUpdated: false,
          ...(options.shard ? { shard: options.shard } : {}),
        })
      }
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`
      const detail = stderr.trim() ? `: ${stderr.trim()}` : ''
      finish({ ok: false, error: `the evaluation ${how} without sending its report${detail}` })
    })
  })
}

/**
 * Under Vitest's update flag (`vitest -u`, `pnpm baseline:update`) the run becomes the baseline: the
 * only place the baseline is written. The report is then re-gated against it and rewritten.
 */
function acceptAsBaseline(evaluation: SharedEvaluation): SharedEvaluation {
  if (!evaluation.ok) return evaluation
  const baseline = baselineFromReport(evaluation.report)
  const dir = baselineDirFor(evaluation.baselineRoot, evaluation.report.config.mode)
  writeBaseline(dir, baseline)
  // Shown as the report shows paths: relative to the project root.
  const report = { ...evaluation.report, gate: evaluateGate(evaluation.report, baseline, displayPath({ root: evaluation.projectRoot }, dir), evaluation.report.config.tolerance) }
  writeReports(report, evaluation.reportsDir)
  return { ...evaluation, report, baselineUpdated: true }
}

/**
 * EVAL_COMPARE=<config>: run B (that config, measured only) against run A (the project's run), question by
 * question, written beside A's reports as compare.json and compare.md; the cases fail a metric B is
 * significantly worse on. Two golden sets that differ, or a side that failed, are a failed comparison.
 */
async function compareWith(bConfig: string, options: RagEvalProjectOptions, a: SharedEvaluation, b: Promise<SharedEvaluation>): Promise<SharedComparison> {
  const measured = await b
  if (!a.ok) return { ok: false, error: `A (this project's run) failed: ${a.error}` }
  if (!measured.ok) return { ok: false, error: `B (EVAL_COMPARE=${bConfig}) failed: ${measured.error}` }
  const side = (source: string) => ({ source, kind: 'config' as const, env: {}, report: null })
  try {
    const result = compareReports(a.report, measured.report, { a: side(options.config ?? (process.env.RAG_EVAL_CONFIG || 'the project config')), b: side(bConfig) })
    writeComparison(a.reportsDir, result)
    return { ok: true, result }
  } catch (error) {
    if (error instanceof InputError) return { ok: false, error: error.message }
    throw error
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const shard = project.vitest.config.shard
  const options: RagEvalProjectOptions = { ...(project.config.provide?.ragEvalOptions ?? {}), ...(shard ? { shard: { index: shard.index, count: shard.count } } : {}) }
  const share = async () => {
    const bConfig = process.env.EVAL_COMPARE || null
    // B runs beside A (its own child), so a comparison costs one run's wall time.
    const b = bConfig === null ? null : runEvaluation({ config: bConfig }, WORKER, 'compare')
    const update = project.config.snapshotOptions.updateSnapshot === 'all'
    // A shard measures a part of the golden set: never a baseline.
    const evaluation = update && shard ? { ok: false as const, error: `vitest -u cannot accept a baseline from shard ${shard.index}/${shard.count} (a part of the golden set): accept it from one whole run (vitest run --project eval -u)` } : await runEvaluation(options)
    const shared = update ? acceptAsBaseline(evaluation) : evaluation
    project.provide('evaluation', shared)
    project.provide('comparison', b === null ? null : await compareWith(bConfig!, options, shared, b))
  }
  await share()
  // Watch mode: every rerun measures again (the trigger may be a change to the corpus or the golden set).
  project.onTestsRerun(share)
}
