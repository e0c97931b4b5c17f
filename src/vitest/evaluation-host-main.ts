// The evaluation's host, a child of Vitest's: answers with the run before writing the other reports, so the cases
// run meanwhile. When Vitest dies (even by SIGKILL) the IPC channel closes: it lets calls in flight land, then exits.
import { redactSecrets } from '../common/secrets.ts'
import { writeFileAtomic } from '../files/write-file-atomic.ts'
import { serialisedReport, writeLatestJson, writeReportCompanions } from '../report/write-report.ts'
import { loadProjectConfig } from '../config/load-project-config.ts'
import { failureMessage, measureProject } from './evaluate-project.ts'
import type { SharedRun } from './shared-run.ts'
import type { EvaluationHostMessage, EvaluationRequest } from './evaluation-host.ts'

if (!process.send) throw new Error('the evaluation host runs as a child process with an IPC channel')
const stop = new AbortController()
// The parent is gone (killed, crashed) or asks us to stop: nobody will read what we would write.
process.on('disconnect', () => stop.abort(new Error('Vitest (the parent process) went away')))
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop.abort(new Error(`stopped by ${signal}`)))

const send = (message: EvaluationHostMessage) =>
  new Promise<void>((resolve) => {
    if (!process.send || !process.connected) return resolve()
    process.send(message, undefined, {}, () => resolve())
  })

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

async function serve({ runId, options, role, reportFile }: EvaluationRequest): Promise<void> {
  // The config file, with ragEval()'s inline options winning.
  const measured = await loadProjectConfig({ configFile: options.config || undefined, overrides: options.inline })
    .then((project) =>
      measureProject(
        project,
        { role, shard: options.shard ?? null },
        // What leaves the host in words is redacted here (files are, where they are written): its log and its failure.
        { log: (line) => console.log(redactSecrets(line)), signal: stop.signal },
      ),
    )
    .catch((error: unknown) => {
      const message = failureMessage(error)
      const why = stop.signal.aborted ? `${String((stop.signal.reason as Error).message)}: ${message}` : message
      return { ok: false, error: redactSecrets(`the evaluation failed: ${why}`) } satisfies SharedRun
    })
  if ('error' in measured) return send({ kind: 'evaluated', runId, run: measured, writing: false })
  // Stopped mid-run: what was paid for is in the cache; nobody reads an answer.
  if (stop.signal.aborted) return
  const { report, writesReports, run } = measured
  // Serialised once: the cases' copy of the report and latest.json are the same bytes.
  const reportJson = serialisedReport(report)
  try {
    writeFileAtomic(reportFile, reportJson)
  } catch (error) {
    const failed = { ok: false, error: `the report could not be handed to the cases: ${messageOf(error)}` } as const
    return send({ kind: 'evaluated', runId, run: failed, writing: false })
  }
  let unwritten: string | null = null
  const write = (files: () => unknown) => {
    try {
      if (unwritten === null) files()
    } catch (error) {
      // A file system error names its path.
      unwritten = `the reports could not be written: ${messageOf(error)}`
    }
  }
  if (writesReports) write(() => writeLatestJson(run.reportsDir, reportJson))
  await send({ kind: 'evaluated', runId, run, writing: writesReports })
  if (!writesReports) return
  write(() => writeReportCompanions(report, run.reportsDir, process.env))
  await send({ kind: 'reports', runId, error: unwritten })
}

process.once('message', (request: EvaluationRequest) => {
  serve(request).then(
    () => process.disconnect(),
    (error: unknown) => {
      console.error(redactSecrets(error instanceof Error ? (error.stack ?? error.message) : String(error)))
      process.exitCode = 1
      process.disconnect()
    },
  )
})
