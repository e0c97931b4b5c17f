import { existsSync, readFileSync, watch } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { CompareResult } from '../compare/comparison-schema.ts'
import type { Report } from '../contract/report-schema.ts'
import type { Shard } from '../run/shard-assignment.ts'
import type { ShardWitness } from '../shard/shard-witness.ts'
import type { RagEvalProjectOptions } from './rag-eval-project.ts'

/**
 * One Vitest run's evaluation, as the cases and the reporter receive it. `R` is null where the run is held
 * without its report (it travels as its own file, so Vitest's main thread does not parse it for a summary).
 */
export type SharedRun<R extends Report | null = Report> =
  | {
      ok: true
      report: R
      /** How many questions the report holds (the reporter's count when it holds no report). */
      questions: number
      /** renderTerminalSummary(report): what the reporter prints (null for a shard). */
      terminalSummary: string | null
      /** Where this run's reports were written. */
      reportsDir: string
      /** The project's root (the config file's folder): the report's paths are relative to it. */
      projectRoot: string
      /** Root folder of the accepted baselines (one per mode). */
      baselineRoot: string
      /** GATE=1: regressions fail their cases (and so the run). */
      gate: boolean
      /** EVAL_STRICT=1: every miss fails, regressed or not (for browsing in the UI). */
      strict: boolean
      /** The baseline was just rewritten from this run (vitest -u). */
      baselineUpdated: boolean
      /** Accepted with system errors at or under maxSystemErrorRate: the warning naming the questions left out of it. */
      baselineWarning?: string
      /** vitest -u refused a run with permission leaks: the baseline is as it was, and its case fails with this. */
      baselineRefusal?: string
      /** vitest --shard=i/n: the report holds shard i's questions only; the merge reports and gates the run. */
      shard?: Shard
      /** A shard's witness of the file it wrote, carried in its blob for the merge to check. */
      shardWitness?: ShardWitness
      /** EVAL_COMPARE=<config>: that config's run (B) against this one (A), or why it could not be made; null without EVAL_COMPARE. */
      comparison:
        | { ok: true; result: CompareResult; /** renderComparison(result, 'text') */ text: string }
        | { ok: false; error: string }
        | null
    }
  | { ok: false; error: string }

/**
 * The files through which a measurement reaches the cases and the reporter, each written whole (temp, then
 * rename): the global setup does not wait for the evaluation, so a case file waits for `run` to appear.
 */
export function runFiles(folder: string, id: string) {
  return {
    /** The run without its report (SharedRun<null>): written last, once the report is in place. */
    run: join(folder, `run-${id}.json`),
    /** The report, as latest.json holds it (the host writes it). */
    report: join(folder, `report-${id}.json`),
    /** `{ error }` once the run's other reports are written (null) or why they are not. */
    reportsWritten: join(folder, `reports-${id}.json`),
  }
}
/** Measurement `id`'s files in its folder. */
export type RunFiles = ReturnType<typeof runFiles>

/** Resolves once `file` exists (its folder watched: written whole by a rename, it is complete when it appears). */
export function whenFileExists(file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let watcher: ReturnType<typeof watch>
    try {
      watcher = watch(dirname(file), (_, name) => (name === null || name === basename(file)) && check())
    } catch (error) {
      return reject(
        new Error(
          `the evaluation's folder ${dirname(file)} could not be read (${(error as Error).message}): run these cases in the eval project, whose global setup runs the evaluation`,
        ),
      )
    }
    watcher.on('error', (error) => {
      watcher.close()
      reject(new Error(`the evaluation's folder ${dirname(file)} went away (${error.message}): the run was stopped`))
    })
    const check = () => {
      if (!existsSync(file)) return
      watcher.close()
      resolve()
    }
    check()
  })
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T

/** The run, once its host has measured it, with its report when `withReport` (the cases; the reporter in watch mode). */
export async function readSharedRun(files: RunFiles, withReport: true): Promise<SharedRun>
export async function readSharedRun(files: RunFiles, withReport: boolean): Promise<SharedRun<Report | null>>
export async function readSharedRun(files: RunFiles, withReport: boolean): Promise<SharedRun<Report | null>> {
  await whenFileExists(files.run)
  const run = readJson<SharedRun<null>>(files.run)
  return run.ok && withReport ? { ...run, report: readJson<Report>(files.report) } : run
}

/** Once the run's reports are written, null, or why they are not (the host hands the run over first). */
export async function readReportsWritten(files: RunFiles): Promise<string | null> {
  await whenFileExists(files.reportsWritten)
  return readJson<{ error: string | null }>(files.reportsWritten).error
}

declare module 'vitest' {
  interface ProvidedContext {
    /** This measurement's files (the latest watch-mode rerun's). */
    evaluation: RunFiles
    /** ragEval()'s options, for the global setup. */
    ragEvalOptions: RagEvalProjectOptions
  }
}
