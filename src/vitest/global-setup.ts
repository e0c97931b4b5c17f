import type { TestProject } from 'vitest/node'
import { chooseEvaluationHost, startEvaluationHost, takeEvaluationHost, type HandedOver } from './evaluation-host.ts'
import { openEvaluationChannel } from './evaluation-channel.ts'
import type { RagEvalProjectOptions } from './rag-eval-project.ts'
import {
  decodeEvaluation,
  encodeEvaluation,
  encodeRun,
  holdRun,
  reportedEvaluation,
  type EvaluationJson,
  type ReportedEvaluation,
  type SharedComparison,
  type SharedEvaluation,
} from './shared-evaluation.ts'

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
  const watch = project.vitest.config.watch
  const runOnce = async (): Promise<{
    evaluation: EvaluationJson
    reported: ReportedEvaluation
    comparison: SharedComparison
    reportsWritten: Promise<string | null>
  }> => {
    const bConfig = process.env.EVAL_COMPARE || null
    // B runs beside A (a host of its own, whose mode is not known here), so a comparison costs one run's wall time.
    const b =
      bConfig === null
        ? null
        : startEvaluationHost(chooseEvaluationHost({ watch, mode: 'unknown' }))
            .evaluate({ options: { config: bConfig }, role: 'compare' })
            .then(({ json }) => decodeEvaluation(json))
    const update = project.config.snapshotOptions.updateSnapshot === 'all'
    // A shard measures a part of the golden set: never a baseline.
    const refused: SharedEvaluation | null =
      update && shard
        ? {
            ok: false,
            error: `vitest -u cannot accept a baseline from shard ${shard.index}/${shard.count} (a part of the golden set): accept it from one whole run (npx vitest run --project eval -u)`,
          }
        : null
    const measured: HandedOver = refused
      ? { json: encodeEvaluation(refused), reported: refused, reportsWritten: Promise.resolve(null) }
      : await takeEvaluationHost(project.name, watch).evaluate({ options, role: 'run' })
    let { json, reported } = measured
    // Parsed here only when needed: accepting the baseline, the comparison, watch mode's diff.
    let evaluation = update || b !== null || watch ? decodeEvaluation(json) : null
    if (update && evaluation) {
      // Accepted once the run's reports are written: accepting re-gates and rewrites them.
      const unwritten = await measured.reportsWritten
      evaluation =
        unwritten === null
          ? (await import('./accept-as-baseline.ts')).acceptAsBaseline(evaluation)
          : { ok: false as const, error: unwritten }
      json = encodeEvaluation(evaluation)
      reported = reportedEvaluation(evaluation, null)
    }
    if (watch && evaluation) reported = reportedEvaluation(evaluation, evaluation.ok ? evaluation.report : null)
    const comparison =
      b === null || evaluation === null
        ? null
        : await (await import('./compare-with.ts')).compareWith(bConfig!, options, evaluation, b)
    return { evaluation: json, reported, comparison, reportsWritten: measured.reportsWritten }
  }
  let current: Promise<unknown> = Promise.resolve()
  const share = () => {
    // A failure anywhere (accepting the baseline, the comparison) is this run's failed evaluation, shown by its cases.
    const run = runOnce().catch((error: unknown) => {
      const failed = {
        ok: false as const,
        error: `the evaluation failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      }
      return { evaluation: encodeEvaluation(failed), reported: failed, comparison: null, reportsWritten: Promise.resolve(null) }
    })
    channel.publish(
      'evaluation',
      run.then(({ evaluation, comparison }) => encodeRun(evaluation, comparison)),
    )
    const reportsWritten = run.then((r) => r.reportsWritten)
    channel.publish(
      'reports',
      reportsWritten.then((error) => [new TextEncoder().encode(JSON.stringify({ error }))]),
    )
    holdRun(
      channel.address,
      run.then(({ reported, comparison }) => ({ evaluation: reported, comparison })),
    )
    current = reportsWritten
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
