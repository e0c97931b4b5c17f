// The evaluation in a child process of Vitest (forked by evaluation-child.ts) for live and record runs and
// in watch mode (each run a fresh process, so it measures the current code). It answers over the IPC
// channel only, and it dies with its parent: a Vitest killed by any signal (SIGKILL included) closes the
// channel, and the run stops starting new work, lets the model calls in flight land in the cache, stops a
// service it started, and exits without writing a report.
import { parseShard } from '../run/shard-assignment.ts'
import { evaluateProject, failureMessage, loadEvalProject } from './evaluate-project.ts'
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

async function main(): Promise<number> {
  if (!process.send)
    throw new Error('the evaluation worker runs only as a child of the eval project (forked with an IPC channel)')
  const inline = process.env[WORKER_ENV.inline]
  const project = await loadEvalProject({
    config: process.env[WORKER_ENV.configFile],
    ...(inline ? { inline: JSON.parse(inline) as Record<string, unknown> } : {}),
  })
  const shard = process.env[WORKER_ENV.shard] ? parseShard(process.env[WORKER_ENV.shard]!, WORKER_ENV.shard) : null
  const role = process.env[WORKER_ENV.role] === 'compare' ? 'compare' : 'run'
  // The cost estimate and the batch progress go to the terminal as they come (stdout is inherited).
  const evaluation = await evaluateProject(project, { role, shard }, { log: (line) => console.log(line), signal: stop.signal })
  if (stop.signal.aborted) return 1
  await send({ type: 'report', runId, ...evaluation })
  return 0
}

main().then(
  (code) => {
    process.exitCode = code
    process.disconnect?.()
  },
  async (error: unknown) => {
    const message = failureMessage(error)
    await send({
      type: 'failed',
      runId,
      error: stop.signal.aborted ? `${String((stop.signal.reason as Error).message)}: ${message}` : message,
    })
    process.exitCode = 1
    process.disconnect?.()
  },
)
