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

declare module 'vitest' {
  interface ProvidedContext {
    evaluation: SharedEvaluation
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
