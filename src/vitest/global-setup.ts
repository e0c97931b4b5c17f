import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import type { Report } from '../contract/report-schema.ts'
import { writeFileAtomic } from '../files/write-file-atomic.ts'
import { evaluateInChild, type Evaluated } from './evaluation-host.ts'
import type { RagEvalProjectOptions } from './rag-eval-project.ts'
import { runFiles, type RunFiles, type SharedRun } from './shared-run.ts'

/**
 * Runs the evaluation once per Vitest run (and watch-mode rerun) and shares it as files (shared-run.ts); it does
 * not wait for it, so Vitest starts the cases' worker meanwhile.
 */
export default function setup(project: TestProject): () => Promise<void> {
  const shard = project.vitest.config.shard
  const options: RagEvalProjectOptions = {
    ...(project.config.provide?.ragEvalOptions ?? {}),
    ...(shard ? { shard: { index: shard.index, count: shard.count } } : {}),
  }
  // One folder per Vitest process, so shards and parallel runs never read each other's evaluation.
  const folder = mkdtempSync(join(tmpdir(), 'rag-vitest-eval-'))
  const removeFolder = () => rmSync(folder, { recursive: true, force: true })
  // Every exit that runs exit handlers (an ended run, process.exit on Ctrl-C or SIGTERM) removes it.
  process.once('exit', removeFolder)
  let measurements = 0
  let current: Promise<unknown> = Promise.resolve()
  const share = () => {
    // A rerun's files replace the last run's (a watch session would otherwise keep every run's report).
    for (const name of readdirSync(folder)) rmSync(join(folder, name), { force: true })
    const files = runFiles(folder, String(++measurements))
    project.provide('evaluation', files)
    current = shareRun(files, measureOnce(project, options, files))
  }
  share()
  // Watch mode: a rerun of this project's cases measures again; a rerun of other projects' tests only does not.
  project.onTestsRerun((specifications) => {
    if (specifications.some((specification) => specification.project.name === project.name)) share()
  })
  return async () => {
    // Whatever the cases did, the run's reports are complete before Vitest exits.
    await current
    process.removeListener('exit', removeFolder)
    removeFolder()
  }
}

const readReport = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Report

/** One measurement: the run (or a refused `-u` on a shard), accepted as the baseline under `-u`, compared under EVAL_COMPARE. */
async function measureOnce(project: TestProject, options: RagEvalProjectOptions, files: RunFiles): Promise<Evaluated> {
  const shard = project.vitest.config.shard
  const bConfig = process.env.EVAL_COMPARE || null
  // B runs beside A (a host of its own), so a comparison costs one run's wall time.
  const bReport = `${files.report}.b`
  const b =
    bConfig === null
      ? null
      : evaluateInChild({ options: { config: bConfig }, role: 'compare', reportFile: bReport }).then(({ run }): SharedRun =>
          run.ok ? { ...run, report: readReport(bReport) } : run,
        )
  const update = project.config.snapshotOptions.updateSnapshot === 'all'
  // A shard measures a part of the golden set: never a baseline.
  if (update && shard)
    return {
      run: {
        ok: false,
        error: `vitest -u cannot accept a baseline from shard ${shard.index}/${shard.count} (a part of the golden set): accept it from one whole run (npx vitest run --project eval -u)`,
      },
      reportsWritten: Promise.resolve(null),
    }
  const measured = await evaluateInChild({ options, role: 'run', reportFile: files.report })
  if ((!update && b === null) || !measured.run.ok) return measured
  let run: SharedRun = { ...measured.run, report: readReport(files.report) }
  if (update) {
    // Accepted once the run's reports are written: accepting re-gates and rewrites them.
    const unwritten = await measured.reportsWritten
    run = unwritten === null ? (await import('./accept-as-baseline.ts')).acceptAsBaseline(run) : { ok: false, error: unwritten }
    // Loaded only here: the report's writers would weigh on every run's start-up in Vitest's process.
    if (run.ok) writeFileAtomic(files.report, (await import('../report/write-report.ts')).serialisedReport(run.report))
  }
  if (b !== null && run.ok)
    run = { ...run, comparison: await (await import('./compare-with.ts')).compareWith(bConfig!, options, run, b) }
  return { run: run.ok ? { ...run, report: null } : run, reportsWritten: measured.reportsWritten }
}

/** Writes one measurement's files: the run once measured (the report is in place by then), the reports' outcome once known. */
async function shareRun(files: RunFiles, measuring: Promise<Evaluated>): Promise<void> {
  // A failure anywhere (accepting the baseline, the comparison) is this run's failed evaluation, shown by its cases.
  const { run, reportsWritten } = await measuring.catch((error: unknown) => ({
    run: {
      ok: false as const,
      error: `the evaluation failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    },
    reportsWritten: Promise.resolve(null),
  }))
  writeFileAtomic(files.run, JSON.stringify(run))
  writeFileAtomic(files.reportsWritten, JSON.stringify({ error: await reportsWritten }))
}
