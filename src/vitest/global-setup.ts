import type { TestProject } from 'vitest/node'
import { baselineDirFor, baselineFromReport, writeBaseline } from '../gate/baseline-files.ts'
import { evaluateGate } from '../gate/gate.ts'
import { writeReports } from '../report/write-report.ts'
import { compareReports } from '../compare/compare-reports.ts'
import { writeComparison } from '../compare/write-comparison.ts'
import { InputError } from '../load/input-error.ts'
import { displayPath } from '../project/project-config.ts'
import { runEvaluation } from './evaluation-child.ts'
import type { RagEvalProjectOptions } from './rag-eval-project.ts'
import { sharedEvaluation, type SharedComparison, type SharedEvaluation } from './shared-evaluation.ts'

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

/**
 * The run's evaluation: in Vitest's own process when that loses nothing (`vitest run` offline or in
 * replay: nothing paid for is in flight, and the process is fresh, so it measures the current code),
 * otherwise in a child (live and record runs, and watch mode). The evaluation's modules are imported
 * only here, so a watch-mode run and the unit project never load them.
 */
async function evaluateOnce(options: RagEvalProjectOptions, watch: boolean): Promise<SharedEvaluation> {
  if (watch) return runEvaluation(options)
  const { costsNothingInFlight, evaluateProject, failureMessage, loadEvalProject } = await import('./evaluate-project.ts')
  try {
    const project = await loadEvalProject(options)
    if (!costsNothingInFlight(project, process.env)) return runEvaluation(options)
    const evaluation = await evaluateProject(project, { role: 'run', shard: options.shard ?? null }, { log: (line) => console.log(line) })
    return sharedEvaluation(evaluation, options)
  } catch (error) {
    return { ok: false, error: `the evaluation failed: ${failureMessage(error)}` }
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const shard = project.vitest.config.shard
  const options: RagEvalProjectOptions = { ...(project.config.provide?.ragEvalOptions ?? {}), ...(shard ? { shard: { index: shard.index, count: shard.count } } : {}) }
  const share = async () => {
    const bConfig = process.env.EVAL_COMPARE || null
    // B runs beside A (its own child), so a comparison costs one run's wall time.
    const b = bConfig === null ? null : runEvaluation({ config: bConfig }, undefined, 'compare')
    const update = project.config.snapshotOptions.updateSnapshot === 'all'
    // A shard measures a part of the golden set: never a baseline.
    const evaluation = update && shard ? { ok: false as const, error: `vitest -u cannot accept a baseline from shard ${shard.index}/${shard.count} (a part of the golden set): accept it from one whole run (vitest run --project eval -u)` } : await evaluateOnce(options, project.vitest.config.watch)
    const shared = update ? acceptAsBaseline(evaluation) : evaluation
    project.provide('evaluation', shared)
    project.provide('comparison', b === null ? null : await compareWith(bConfig!, options, shared, b))
  }
  await share()
  // Watch mode: every rerun measures again (the trigger may be a change to the corpus or the golden set).
  project.onTestsRerun(share)
}
