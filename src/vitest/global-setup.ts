import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import type { TestProject } from 'vitest/node'
import { BASELINE_ROOT, baselineDirFor, baselineFromReport, writeBaseline } from '../gate/baseline-files.ts'
import { evaluateGate } from '../gate/gate.ts'
import { ReportSchema, type Report } from '../report/report-schema.ts'
import { writeReports } from '../report/write-report.ts'
import type { SharedEvaluation } from './shared-evaluation.ts'

/** Where the shared run writes its reports (EVAL_REPORTS_DIR, default reports/). */
const REPORTS_DIR = process.env.EVAL_REPORTS_DIR || 'reports'

/**
 * Runs the evaluation once, in a child process (so watch mode always measures the current code of
 * src/, corpus/ and evals/), and reads the report it wrote. Its own gate exit code is not used here:
 * the cases decide, so the child runs without GATE.
 */
function runEvaluation(): SharedEvaluation {
  // The child's progress (a live run's cost estimate, Message Batches polls) shows as it comes; its summary
  // is left to the reporter (--quiet); stderr is kept for the failure message.
  const child = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/eval.ts', '--quiet', '--out', REPORTS_DIR, '--baseline', BASELINE_ROOT], {
    encoding: 'utf8',
    env: { ...process.env, GATE: '' },
    stdio: ['ignore', 'inherit', 'pipe'],
  })
  if (child.status !== 0) {
    const reason = child.error?.message ?? (child.stderr.trim() || `exit code ${child.status}`)
    return { ok: false, error: `the evaluation failed: ${reason}` }
  }
  const report: Report = ReportSchema.parse(JSON.parse(readFileSync(`${REPORTS_DIR}/latest.json`, 'utf8')))
  return { ok: true, report, gate: process.env.GATE === '1', strict: process.env.EVAL_STRICT === '1', baselineUpdated: false }
}

/**
 * Under Vitest's update flag (`vitest -u`, `pnpm baseline:update`) the run becomes the baseline: the
 * only place the baseline is written. The report is then re-gated against it and rewritten.
 */
function acceptAsBaseline(evaluation: SharedEvaluation): SharedEvaluation {
  if (!evaluation.ok) return evaluation
  const baseline = baselineFromReport(evaluation.report)
  const dir = baselineDirFor(BASELINE_ROOT, evaluation.report.config.mode)
  writeBaseline(dir, baseline)
  const report = { ...evaluation.report, gate: evaluateGate(evaluation.report, baseline, dir, evaluation.report.config.tolerance) }
  writeReports(report, REPORTS_DIR)
  return { ...evaluation, report, baselineUpdated: true }
}

export default function setup(project: TestProject): void {
  const share = () => {
    const evaluation = runEvaluation()
    const update = project.config.snapshotOptions.updateSnapshot === 'all'
    project.provide('evaluation', update ? acceptAsBaseline(evaluation) : evaluation)
  }
  share()
  // Watch mode: every rerun measures again (the trigger may be a change to the corpus or the golden set).
  project.onTestsRerun(share)
}
