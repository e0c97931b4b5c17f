// The one entry module of the evaluation, hosted in a worker thread of Vitest's process or in a child process
// (evaluation-host.ts decides and starts it). Started ahead of need, it loads the evaluation's modules
// while Vitest starts up, then evaluates when asked (an EvaluationRequest message) and answers with the
// same messages wherever it runs: the shared evaluation as JSON pieces (transferred to a thread, sent by
// structured clone to a parent process) before it writes the other reports, so the cases run meanwhile.
// In a child it dies with its parent: a Vitest killed by any signal (SIGKILL included) closes the IPC
// channel, and the run starts no new work, lets the model calls in flight land in the cache, stops a
// service it started, and exits without answering.
import { parentPort, type TransferListItem } from 'node:worker_threads'
import { redactSecrets } from '../common/secrets.ts'
import { serialisedReport, writeLatestJson, writeReportCompanions } from '../report/write-report.ts'
import { failureMessage, loadEvalProject, measureProject } from './evaluate-project.ts'
import { encodeRun, sharedRunJson, type SharedRun } from './shared-run.ts'
import type { EvaluationHostMessage, EvaluationRequest } from './evaluation-host.ts'

/** The host's side of its transport: the parent thread's port, or the child's IPC channel. */
interface Parent {
  onRequest(serve: (request: EvaluationRequest) => void): void
  send(message: EvaluationHostMessage, transfer: TransferListItem[]): Promise<void>
  /** Aborted when nobody will read the answer any more (a child's parent gone or stopping it). */
  stop: AbortSignal
  done(): void
}

function threadParent(port: NonNullable<typeof parentPort>): Parent {
  return {
    onRequest: (serve) => port.once('message', serve),
    send: async (message, transfer) => port.postMessage(message, transfer),
    stop: new AbortController().signal,
    done: () => {},
  }
}

function childParent(): Parent {
  if (!process.send) throw new Error('the evaluation host runs as a worker thread or a child process with an IPC channel')
  const stop = new AbortController()
  // The parent is gone (killed, crashed) or asks us to stop: nobody will read what we would write.
  process.on('disconnect', () => stop.abort(new Error('Vitest (the parent process) went away')))
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop.abort(new Error(`stopped by ${signal}`)))
  return {
    onRequest: (serve) => process.once('message', serve),
    send: (message) =>
      new Promise((resolve) => {
        if (!process.send || !process.connected) return resolve()
        process.send(message, undefined, {}, () => resolve())
      }),
    stop: stop.signal,
    done: () => process.disconnect?.(),
  }
}

const parent = parentPort ? threadParent(parentPort) : childParent()

async function serve({ runId, options, role }: EvaluationRequest): Promise<void> {
  const measured = await loadEvalProject(options)
    .then((project) =>
      measureProject(
        project,
        { role, shard: options.shard ?? null },
        // What leaves the host in words is redacted here (files are, where they are written): its log and its failure.
        { log: (line) => console.log(redactSecrets(line)), signal: parent.stop },
      ),
    )
    .catch((error: unknown) => {
      const message = failureMessage(error)
      const why = parent.stop.aborted ? `${String((parent.stop.reason as Error).message)}: ${message}` : message
      return { ok: false, error: redactSecrets(`the evaluation failed: ${why}`) } satisfies SharedRun
    })
  if ('error' in measured) {
    await parent.send({ kind: 'evaluated', runId, json: encodeRun(measured), reported: measured, writing: false }, [])
    return
  }
  // Stopped mid-run: what was paid for is in the cache; nobody reads an answer.
  if (parent.stop.aborted) return
  const { report, writesReports, run } = measured
  // Serialised once, straight to UTF-8 pieces: latest.json's bytes are also what the cases receive.
  // latest.json is written before they are handed over, the other reports after.
  const reportJson = serialisedReport(report)
  let unwritten: string | null = null
  const write = (files: () => unknown) => {
    try {
      if (unwritten === null) files()
    } catch (error) {
      // A file system error names its path.
      unwritten = `the reports could not be written: ${error instanceof Error ? error.message : String(error)}`
    }
  }
  if (writesReports) write(() => writeLatestJson(run.reportsDir, reportJson))
  await parent.send(
    { kind: 'evaluated', runId, json: sharedRunJson(run, reportJson), reported: run, writing: writesReports },
    reportJson.map((piece) => piece.buffer as ArrayBuffer),
  )
  if (!writesReports) return
  write(() => writeReportCompanions(report, run.reportsDir))
  await parent.send({ kind: 'reports', runId, error: unwritten }, [])
}

// No top-level await: jiti runs this module as CommonJS in a thread.
parent.onRequest((request) => {
  serve(request).then(
    () => parent.done(),
    (error: unknown) => {
      console.error(redactSecrets(error instanceof Error ? (error.stack ?? error.message) : String(error)))
      process.exitCode = 1
      parent.done()
    },
  )
})
