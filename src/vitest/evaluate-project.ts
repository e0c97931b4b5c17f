import type { Report } from '../contract/report-schema.ts'
import { InputError } from '../contract/input-error.ts'
import { collectGarbageAbove } from '../run/collect-garbage.ts'
import { loadProjectConfig } from '../config/load-project-config.ts'
import type { ProjectConfig } from '../config/project-config.ts'
import { renderTerminalSummary } from '../report/render-terminal.ts'
import { evaluate } from '../run/evaluate.ts'
import type { Shard } from '../run/shard-assignment.ts'
import { evaluateShard } from '../shard/evaluate-shard.ts'
import type { ShardWitness } from '../shard/shard-witness.ts'

/** The project's config as ragEval() was given it: the config file, with the inline options winning. */
export function loadEvalProject(options: {
  config?: string | undefined
  inline?: Record<string, unknown> | undefined
}): Promise<ProjectConfig> {
  return loadProjectConfig({ configFile: options.config || undefined, overrides: options.inline })
}

function evaluationTier(value: string | undefined): Report['tier'] {
  if (value === undefined || value === '' || value === 'full') return 'full'
  if (value === 'retrieval') return 'retrieval'
  throw new InputError(`EVAL_TIER=${JSON.stringify(value)}: expected retrieval or full`)
}

/** A measured run of the eval project: the report (with its context texts), whether it is written, and where things live. */
export interface MeasuredProject {
  report: Report
  /** A run's reports are written; a shard's measurement and the B side of a comparison are not. */
  writesReports: boolean
  evaluation: {
    /** renderTerminalSummary(report), made where the report is (the reporter then loads no renderer); null for a shard or the B side of a comparison. */
    terminalSummary: string | null
    reportsDir: string
    baselineRoot: string
    projectRoot: string
    /** A shard's: what its blob carries so the merge can tell the file this run wrote (shard/shard-witness.ts). */
    shardWitness?: ShardWitness
  }
}

/**
 * The eval project's evaluation, wherever it is hosted (src/vitest/evaluation-host-main.ts): EVAL_TIER
 * picks the tier (default full); a shard measures its questions only and leaves them for the merge (no
 * latest.json); the B side of EVAL_COMPARE ('compare') is measured only, without the baseline or reports.
 * The run is evaluated without GATE: the cases decide.
 */
export async function measureProject(
  project: ProjectConfig,
  request: { role: 'run' | 'compare'; shard: Shard | null },
  run: { log: (line: string) => void; signal?: AbortSignal },
): Promise<MeasuredProject> {
  const comparing = request.role === 'compare'
  const options = {
    tier: evaluationTier(process.env.EVAL_TIER),
    env: { ...process.env, GATE: '' },
    ...run,
    ...(comparing ? { baselineRoot: null } : {}),
  } as const
  const shard = request.shard ? await evaluateShard(project, { ...options, shard: request.shard }) : null
  const report = shard ? shard.report : await evaluate(project, options)
  // The run's garbage (the index, the rankings, the texts) goes before the reports are written and Vitest
  // collects its test results: the peak is then what is retained plus what comes next, not their sum
  // (a small run's heap is not worth a full collection).
  collectGarbageAbove(100)
  const writesReports = !comparing && !request.shard
  const terminalSummary = writesReports ? renderTerminalSummary(report) : null
  return {
    report,
    writesReports,
    evaluation: {
      terminalSummary,
      reportsDir: project.reports,
      baselineRoot: project.baseline,
      projectRoot: project.root,
      ...(shard ? { shardWitness: shard.witness } : {}),
    },
  }
}

/** An evaluation's failure as the cases show it: the input's own message, or the stack of a bug. */
export function failureMessage(error: unknown): string {
  return error instanceof InputError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)
}
