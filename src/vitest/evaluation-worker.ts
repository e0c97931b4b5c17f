// The evaluation in a child process of Vitest (forked by global-setup.ts), so watch mode measures the
// current code. It answers over the IPC channel only, and it dies with its parent: a Vitest killed by any
// signal (SIGKILL included) closes the channel, and the run stops starting new work, lets the model calls
// in flight land in the cache, stops a service it started, and exits without writing a report.
import { loadProjectConfig } from '../project/load-project-config.ts'
import { InputError } from '../load/input-error.ts'
import { withoutContextTexts } from '../report/context-sidecar.ts'
import { writeReports } from '../report/write-report.ts'
import { evaluate } from '../run/evaluate.ts'
import { evaluateShard } from '../shard/evaluate-shard.ts'
import { parseShard } from '../run/shard-assignment.ts'
import { WORKER_ENV, type WorkerMessage } from './evaluation-protocol.ts'

const runId = process.env[WORKER_ENV.runId] ?? ''
const stop = new AbortController()

function send(message: WorkerMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve()
    process.send(message, undefined, {}, () => resolve())
  })
}

// The parent is gone (killed, crashed) or asks us to stop: nobody will read what we would write.
process.on('disconnect', () => stop.abort(new Error('Vitest (the parent process) went away')))
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop.abort(new Error(`stopped by ${signal}`)))

function evaluationTier(value: string | undefined): 'retrieval' | 'full' {
  if (value === undefined || value === '' || value === 'full') return 'full'
  if (value === 'retrieval') return 'retrieval'
  throw new InputError(`EVAL_TIER=${JSON.stringify(value)}: expected retrieval or full`)
}

async function main(): Promise<number> {
  if (!process.send) throw new Error('the evaluation worker runs only as a child of the eval project (forked with an IPC channel)')
  const inline = process.env[WORKER_ENV.inline]
  const project = await loadProjectConfig({
    configFile: process.env[WORKER_ENV.configFile] || undefined,
    overrides: inline ? (JSON.parse(inline) as Record<string, unknown>) : undefined,
  })
  // The cost estimate and the batch progress go to the terminal as they come (stdout is inherited).
  // EVAL_COMPARE's B side is measured only: A's run owns the baseline comparison and the reports.
  const comparing = process.env[WORKER_ENV.role] === 'compare'
  // EVAL_TIER=retrieval: the per-commit tier through Vitest (no answers, no judge); default the full tier.
  const tier = evaluationTier(process.env.EVAL_TIER)
  const options = { tier, env: { ...process.env, GATE: '' }, log: (line: string) => console.log(line), signal: stop.signal, ...(comparing ? { baselineRoot: null } : {}) } as const
  // vitest --shard=i/n: shard i's questions, left for the merge in <reports>/shards/ (no latest.json: the merge writes it).
  const shard = process.env[WORKER_ENV.shard] ? parseShard(process.env[WORKER_ENV.shard]!, WORKER_ENV.shard) : null
  const report = shard ? (await evaluateShard(project, { ...options, shard })).report : await evaluate(project, options)
  if (stop.signal.aborted) return 1
  if (!comparing && !shard) writeReports(report, project.reports)
  // The context texts stay in contexts.jsonl (written above): no case reads them, and they are a third of a large report.
  await send({ type: 'report', runId, report: withoutContextTexts(report), reportsDir: project.reports, baselineRoot: project.baseline, projectRoot: project.root })
  return 0
}

main().then(
  (code) => {
    process.exitCode = code
    process.disconnect?.()
  },
  async (error: unknown) => {
    const message = error instanceof InputError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)
    await send({ type: 'failed', runId, error: stop.signal.aborted ? `${String((stop.signal.reason as Error).message)}: ${message}` : message })
    process.exitCode = 1
    process.disconnect?.()
  },
)
