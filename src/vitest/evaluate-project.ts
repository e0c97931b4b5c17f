import type { Report } from '../contract/report-schema.ts'
import { InputError } from '../contract/input-error.ts'
import { collectGarbageAbove } from '../run/collect-garbage.ts'
import type { ProjectConfig } from '../config/project-config.ts'
import { renderTerminalSummary } from '../report/render-terminal.ts'
import { evaluate } from '../run/evaluate.ts'
import type { Shard } from '../run/shard-assignment.ts'
import { evaluateShard } from '../shard/evaluate-shard.ts'
import type { SharedRun } from './shared-run.ts'

function evaluationTier(value: string | undefined): Report['tier'] {
  if (value === undefined || value === '' || value === 'full') return 'full'
  if (value === 'retrieval') return 'retrieval'
  throw new InputError(`EVAL_TIER=${JSON.stringify(value)}: expected retrieval or full`)
}

/**
 * The eval project's evaluation, without GATE (the cases decide). A shard or EVAL_COMPARE's B side is only
 * measured: no baseline, no reports. The shared run leaves its report out (the host sends latest.json's bytes).
 */
export async function measureProject(
  project: ProjectConfig,
  request: { role: 'run' | 'compare'; shard: Shard | null },
  io: { log: (line: string) => void; signal?: AbortSignal },
) {
  const comparing = request.role === 'compare'
  const options = {
    tier: evaluationTier(process.env.EVAL_TIER),
    env: { ...process.env, GATE: '' },
    ...io,
    ...(comparing ? { baselineRoot: null } : {}),
  } as const
  const shard = request.shard ? await evaluateShard(project, { ...options, shard: request.shard }) : null
  const report = shard ? shard.report : await evaluate(project, options)
  // Collected before reports and test results are made, so the peak is not the sum of both.
  collectGarbageAbove(100)
  // A run's reports are written; a shard's measurement and the B side of a comparison are not.
  const writesReports = !comparing && !request.shard
  const run = {
    ok: true,
    report: null,
    questions: report.questions.length,
    // Rendered where the report is: the reporter then loads no renderer.
    terminalSummary: writesReports ? renderTerminalSummary(report) : null,
    reportsDir: project.reports,
    projectRoot: project.root,
    baselineRoot: project.baseline,
    // Never in a shard: its questions are a part of the golden set; the merge gates the whole.
    gate: process.env.GATE === '1' && !request.shard,
    strict: process.env.EVAL_STRICT === '1',
    baselineUpdated: false,
    ...(request.shard ? { shard: request.shard } : {}),
    ...(shard ? { shardWitness: shard.witness } : {}),
    comparison: null,
  } satisfies SharedRun<null>
  return { report, writesReports, run }
}

/** An evaluation's failure as the cases show it: the input's own message, or the stack of a bug. */
export function failureMessage(error: unknown): string {
  return error instanceof InputError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)
}
