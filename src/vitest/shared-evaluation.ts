import { createHash, randomBytes } from 'node:crypto'
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomic } from '../support/write-file-atomic.ts'
import { isProcessAlive } from '../system/process-group.ts'
import type { CompareResult } from '../compare/comparison-schema.ts'
import type { Report } from '../contract/report-schema.ts'
import type { Shard } from '../run/shard-assignment.ts'
import type { ProjectEvaluation } from './evaluate-project.ts'
import type { RagEvalProjectOptions } from './rag-eval-project.ts'

/**
 * What the eval project's global setup hands every evaluation case (through `provide`/`inject`):
 * the one shared run of the Vitest run, compared with the baseline, and how to treat misses.
 */
export type SharedEvaluation =
  | {
      ok: true
      report: Report
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
      /** vitest --shard=i/n: the report holds shard i's questions only; the merge reports and gates the run. */
      shard?: Shard
    }
  | { ok: false; error: string }

/** EVAL_COMPARE=<config>: that config's run (B) against the project's (A), or why it could not be made; null without EVAL_COMPARE. */
export type SharedComparison = { ok: true; result: CompareResult } | { ok: false; error: string } | null

/**
 * The shared evaluation as it is provided: a failure as it is, a run by the file that holds it (written
 * beside its reports for this Vitest run) and that file's sha256. Vitest's provide() structured-clones a
 * value to check it can be sent, and each worker receives a copy over IPC: for 10,000 question outcomes
 * that was 0.4 s and 200 MB at the peak of the main process. The digest makes sure the cases read this
 * run's evaluation, never a file an earlier or concurrent run left.
 */
export type ProvidedEvaluation = Extract<SharedEvaluation, { ok: false }> | { ok: true; file: string; sha256: string }

/** In the main process, the evaluation behind a digest (the global setup's and the reporter's module instances differ; the process is one). */
const inProcess: Map<string, SharedEvaluation> = ((globalThis as Record<symbol, unknown>)[Symbol.for('rag-vitest-eval/shared-evaluations')] ??= new Map()) as Map<string, SharedEvaluation>

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

/**
 * Shares an evaluation with the cases' workers and the reporter: a run through a file of this Vitest
 * process in its reports folder (shards of one run may share that folder; the global setup removes the
 * file when the run ends), a failure as it is.
 */
export function shareEvaluation(evaluation: SharedEvaluation): ProvidedEvaluation {
  if (!evaluation.ok) return evaluation
  removeOrphans(evaluation.reportsDir)
  const text = JSON.stringify(evaluation)
  const file = join(evaluation.reportsDir, `.vitest-evaluation.${process.pid}.${randomBytes(4).toString('hex')}.json`)
  writeFileAtomic(file, text)
  const digest = sha256(text)
  inProcess.clear()
  inProcess.set(digest, evaluation)
  return { ok: true, file, sha256: digest }
}

const SHARED_FILE = /^\.vitest-evaluation\.(\d+)\.[0-9a-f]+\.json$/

/** Shared files whose Vitest process is gone (killed before it could remove its file): nobody will read them. */
function removeOrphans(dir: string): void {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return
  }
  for (const name of names) {
    const pid = SHARED_FILE.exec(name)?.[1]
    if (pid !== undefined && !isProcessAlive(Number(pid))) rmSync(join(dir, name), { force: true })
  }
}

/** The provided evaluation, read once per process; a file that is not the one this run wrote is a failed evaluation. */
export function readShared(provided: ProvidedEvaluation): SharedEvaluation {
  if (!provided.ok) return provided
  const known = inProcess.get(provided.sha256)
  if (known) return known
  let text: string
  try {
    text = readFileSync(provided.file, 'utf8')
  } catch (error) {
    return { ok: false, error: `${provided.file}: the evaluation this run shared could not be read (${(error as Error).message})` }
  }
  if (sha256(text) !== provided.sha256) return { ok: false, error: `${provided.file} is not the evaluation this run shared (it changed since): run again` }
  const evaluation = JSON.parse(text) as SharedEvaluation
  inProcess.set(provided.sha256, evaluation)
  return evaluation
}

declare module 'vitest' {
  interface ProvidedContext {
    evaluation: ProvidedEvaluation
    comparison: SharedComparison
    /** ragEval()'s options, for the global setup. */
    ragEvalOptions: RagEvalProjectOptions
  }
}

/**
 * A finished evaluation as the cases receive it, with this Vitest run's conditions: GATE=1 fails on
 * regressions (never in a shard: its questions are a part of the golden set; the merge gates the whole),
 * EVAL_STRICT=1 fails on every miss.
 */
export function sharedEvaluation(evaluation: ProjectEvaluation, options: RagEvalProjectOptions): SharedEvaluation {
  return {
    ok: true,
    ...evaluation,
    gate: process.env.GATE === '1' && !options.shard,
    strict: process.env.EVAL_STRICT === '1',
    baselineUpdated: false,
    ...(options.shard ? { shard: options.shard } : {}),
  }
}
