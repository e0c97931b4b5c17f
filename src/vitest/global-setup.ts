import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'
import { importOwnModule } from '../support/import-module.ts'
import type { RagEvalProjectOptions } from './rag-eval-project.ts'
import { shareEvaluation, sharedEvaluation, type SharedEvaluation } from './shared-evaluation.ts'

// The rest of the evaluation is loaded on demand, by Node rather than by Vite's module runner (which would
// transform its 150 modules again on every run): importOwnModule.
const EXT = import.meta.url.endsWith('.ts') ? 'ts' : 'js'
const own = <T>(name: string) => importOwnModule<T>(fileURLToPath(new URL(`./${name}.${EXT}`, import.meta.url)))
const child = () => own<typeof import('./evaluation-child.ts')>('evaluation-child')

/**
 * The run's evaluation: in Vitest's own process when that loses nothing (`vitest run` offline or in
 * replay: nothing paid for is in flight, and the process is fresh, so it measures the current code),
 * otherwise in a child (live and record runs, and watch mode). The evaluation's modules are imported
 * only here, so a watch-mode run and the unit project never load them.
 */
async function evaluateOnce(options: RagEvalProjectOptions, watch: boolean): Promise<SharedEvaluation> {
  if (watch) return (await child()).runEvaluation(options)
  const { costsNothingInFlight, evaluateProject, failureMessage, loadEvalProject } = await own<typeof import('./evaluate-project.ts')>('evaluate-project')
  try {
    const project = await loadEvalProject(options)
    if (!costsNothingInFlight(project, process.env)) return (await child()).runEvaluation(options)
    const evaluation = await evaluateProject(project, { role: 'run', shard: options.shard ?? null }, { log: (line) => console.log(line) })
    return sharedEvaluation(evaluation, options)
  } catch (error) {
    return { ok: false, error: `the evaluation failed: ${failureMessage(error)}` }
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const shard = project.vitest.config.shard
  const options: RagEvalProjectOptions = { ...(project.config.provide?.ragEvalOptions ?? {}), ...(shard ? { shard: { index: shard.index, count: shard.count } } : {}) }
  const share = async () => {
    const bConfig = process.env.EVAL_COMPARE || null
    // B runs beside A (its own child), so a comparison costs one run's wall time.
    const b = bConfig === null ? null : child().then(({ runEvaluation }) => runEvaluation({ config: bConfig }, undefined, 'compare'))
    const update = project.config.snapshotOptions.updateSnapshot === 'all'
    // A shard measures a part of the golden set: never a baseline.
    const evaluation = update && shard ? { ok: false as const, error: `vitest -u cannot accept a baseline from shard ${shard.index}/${shard.count} (a part of the golden set): accept it from one whole run (vitest run --project eval -u)` } : await evaluateOnce(options, project.vitest.config.watch)
    const shared = update ? (await own<typeof import('./accept-as-baseline.ts')>('accept-as-baseline')).acceptAsBaseline(evaluation) : evaluation
    const provided = shareEvaluation(shared)
    project.provide('evaluation', provided)
    // Watch mode: the previous run's file goes as this one's comes.
    removeShared()
    if (provided.ok) written.add(provided.file)
    project.provide('comparison', b === null ? null : await (await own<typeof import('./compare-with.ts')>('compare-with')).compareWith(bConfig!, options, shared, b))
  }
  const written = new Set<string>()
  const removeShared = () => {
    for (const file of written) rmSync(file, { force: true })
    written.clear()
  }
  await share()
  // Watch mode: every rerun measures again (the trigger may be a change to the corpus or the golden set).
  project.onTestsRerun(share)
  return removeShared
}
