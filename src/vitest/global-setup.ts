import type { TestProject } from 'vitest/node'
import { chooseEvaluationHost, startEvaluationHost, takeEvaluationHost, type EvaluationHost } from './evaluation-host.ts'
import { openEvaluationChannel, type EvaluationChannel } from './evaluation-channel.ts'
import type { RagEvalProjectOptions } from './rag-eval-project.ts'
import { decodeRun, encodeRun, holdRun, reporterView, type SharedRun } from './shared-run.ts'

/**
 * Runs the evaluation once per Vitest run (and per watch-mode rerun) and shares it over a local channel
 * (evaluation-channel.ts). It does not wait for the evaluation: Vitest starts the cases' worker meanwhile,
 * and the case file waits on the channel; the reporter waits on the same run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const shard = project.vitest.config.shard
  const options: RagEvalProjectOptions = {
    ...(project.config.provide?.ragEvalOptions ?? {}),
    ...(shard ? { shard: { index: shard.index, count: shard.count } } : {}),
  }
  const channel = await openEvaluationChannel()
  project.provide('evaluation', { channel: channel.address })
  let current: Promise<unknown> = Promise.resolve()
  const share = () => {
    current = publishRun(channel, measureOnce(project, options))
  }
  share()
  // Watch mode: every rerun of this project's cases measures again (the trigger may be a change to the corpus
  // or the golden set: rag-eval-project.ts); a rerun of other projects' tests only does not.
  project.onTestsRerun((specifications) => {
    if (specifications.some((specification) => specification.project.name === project.name)) share()
  })
  return async () => {
    // Whatever the cases did, the run's reports are complete before Vitest exits.
    await current
    await channel.close()
  }
}

type Measured = Awaited<ReturnType<EvaluationHost['evaluate']>>

/** One measurement: the run (or a refused `-u` on a shard), accepted as the baseline under `-u`, compared under EVAL_COMPARE. */
async function measureOnce(project: TestProject, options: RagEvalProjectOptions): Promise<Measured> {
  const shard = project.vitest.config.shard
  const watch = project.vitest.config.watch
  const bConfig = process.env.EVAL_COMPARE || null
  // B runs beside A (a host of its own, whose mode is not known here), so a comparison costs one run's wall time.
  const b =
    bConfig === null
      ? null
      : startEvaluationHost(chooseEvaluationHost({ watch, mode: 'unknown' }))
          .evaluate({ options: { config: bConfig }, role: 'compare' })
          .then(({ json }) => decodeRun(json))
  const update = project.config.snapshotOptions.updateSnapshot === 'all'
  // A shard measures a part of the golden set: never a baseline.
  const refused: SharedRun | null =
    update && shard
      ? {
          ok: false,
          error: `vitest -u cannot accept a baseline from shard ${shard.index}/${shard.count} (a part of the golden set): accept it from one whole run (npx vitest run --project eval -u)`,
        }
      : null
  const measured = refused
    ? { json: encodeRun(refused), reported: refused, reportsWritten: Promise.resolve(null) }
    : await takeEvaluationHost(project.name, watch).evaluate({ options, role: 'run' })
  // Parsed here only when needed: accepting the baseline, the comparison, watch mode's diff.
  if (!update && b === null && !watch) return measured
  let run = decodeRun(measured.json)
  if (update) {
    // Accepted once the run's reports are written: accepting re-gates and rewrites them.
    const unwritten = await measured.reportsWritten
    run = unwritten === null ? (await import('./accept-as-baseline.ts')).acceptAsBaseline(run) : { ok: false, error: unwritten }
  }
  if (b !== null && run.ok)
    run = { ...run, comparison: await (await import('./compare-with.ts')).compareWith(bConfig!, options, run, b) }
  return {
    json: update || b !== null ? encodeRun(run) : measured.json,
    reported: reporterView(run, watch),
    reportsWritten: measured.reportsWritten,
  }
}

/** Shares one measurement over the channel (cases) and with the reporter; resolves once its reports are written. */
function publishRun(channel: EvaluationChannel, measuring: Promise<Measured>): Promise<string | null> {
  // A failure anywhere (accepting the baseline, the comparison) is this run's failed evaluation, shown by its cases.
  const run = measuring.catch((error: unknown) => {
    const failed = {
      ok: false,
      error: `the evaluation failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    } satisfies SharedRun
    return { json: encodeRun(failed), reported: failed, reportsWritten: Promise.resolve(null) }
  })
  channel.publish(
    'evaluation',
    run.then(({ json }) => json),
  )
  const reportsWritten = run.then((r) => r.reportsWritten)
  channel.publish(
    'reports',
    reportsWritten.then((error) => [new TextEncoder().encode(JSON.stringify({ error }))]),
  )
  holdRun(
    channel.address,
    run.then(({ reported }) => reported),
  )
  return reportsWritten
}
