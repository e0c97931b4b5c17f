import type { TestProject } from 'vitest/node'
import { openEvaluationChannel } from './evaluation-channel.ts'
import { evaluateInThread, type HandedOver } from './evaluation-thread.ts'
import type { RagEvalProjectOptions } from './rag-eval-project.ts'
import {
  decodeEvaluation,
  encodeRun,
  holdRun,
  reportedEvaluation,
  type EvaluationJson,
  type ReportedEvaluation,
  type SharedComparison,
  type SharedEvaluation,
} from './shared-evaluation.ts'

// What only some runs need (watch mode, live and record runs, vitest -u, EVAL_COMPARE) is loaded on demand.
const child = () => import('./evaluation-child.ts')

/**
 * The run's evaluation: in a worker thread of Vitest's process when that loses nothing (`vitest run`
 * offline or in replay: nothing paid for is in flight, and the thread is fresh, so it measures the current
 * code), handed over before its reports are written; otherwise in a child process (live and record runs,
 * and watch mode), which writes them first.
 */
async function evaluateOnce(options: RagEvalProjectOptions, watch: boolean): Promise<HandedOver> {
  const inAChild = async (): Promise<HandedOver> => {
    const evaluation = await (await child()).runEvaluation(options)
    return {
      evaluation,
      reported: reportedEvaluation(evaluation, evaluation.ok ? evaluation.report : null),
      reportsWritten: Promise.resolve(null),
    }
  }
  if (watch) return inAChild()
  const handedOver = await evaluateInThread(options)
  return handedOver === 'in-a-child' ? inAChild() : handedOver
}

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
  const runOnce = async (): Promise<{
    evaluation: SharedEvaluation | EvaluationJson
    reported: ReportedEvaluation
    comparison: SharedComparison
    reportsWritten: Promise<string | null>
  }> => {
    const bConfig = process.env.EVAL_COMPARE || null
    // B runs beside A (its own child), so a comparison costs one run's wall time.
    const b =
      bConfig === null ? null : child().then(({ runEvaluation }) => runEvaluation({ config: bConfig }, undefined, 'compare'))
    const update = project.config.snapshotOptions.updateSnapshot === 'all'
    // A shard measures a part of the golden set: never a baseline.
    const refused =
      update && shard
        ? {
            ok: false as const,
            error: `vitest -u cannot accept a baseline from shard ${shard.index}/${shard.count} (a part of the golden set): accept it from one whole run (vitest run --project eval -u)`,
          }
        : null
    const measured: HandedOver = refused
      ? { evaluation: refused, reported: refused, reportsWritten: Promise.resolve(null) }
      : await evaluateOnce(options, project.vitest.config.watch)
    let { evaluation, reported } = measured
    if (update) {
      // Accepted once the run's reports are written: accepting re-gates and rewrites them.
      const unwritten = await measured.reportsWritten
      const accepted =
        unwritten === null
          ? (await import('./accept-as-baseline.ts')).acceptAsBaseline(decodeEvaluation(evaluation))
          : { ok: false as const, error: unwritten }
      evaluation = accepted
      reported = reportedEvaluation(accepted, project.vitest.config.watch && accepted.ok ? accepted.report : null)
    }
    const comparison =
      b === null
        ? null
        : await (await import('./compare-with.ts')).compareWith(bConfig!, options, decodeEvaluation(evaluation), b)
    return { evaluation, reported, comparison, reportsWritten: measured.reportsWritten }
  }
  let current: Promise<unknown> = Promise.resolve()
  const share = () => {
    // A failure anywhere (accepting the baseline, the comparison) is this run's failed evaluation, shown by its cases.
    const run = runOnce().catch((error: unknown) => {
      const failed = {
        ok: false as const,
        error: `the evaluation failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      }
      return { evaluation: failed, reported: failed, comparison: null, reportsWritten: Promise.resolve(null) }
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
  // Watch mode: every rerun measures again (the trigger may be a change to the corpus or the golden set).
  project.onTestsRerun(share)
  return async () => {
    // Whatever the cases did, the run's reports are complete before Vitest exits.
    await current
    await channel.close()
  }
}
