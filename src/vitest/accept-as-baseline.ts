import { baselineFromReport, writeBaseline } from '../gate/baseline-files.ts'
import { baselineDirFor } from '../gate/baseline-location.ts'
import { evaluateGate } from '../gate/gate.ts'
import { displayPath } from '../config/project-config.ts'
import { renderTerminalSummary } from '../report/render-terminal.ts'
import { writeReports } from '../report/write-report.ts'
import type { SharedEvaluation } from './shared-evaluation.ts'

/**
 * Under Vitest's update flag (`vitest -u`, `pnpm baseline:update`) the run becomes the baseline: the
 * only place the baseline is written. The report is then re-gated against it and rewritten.
 */
export function acceptAsBaseline(evaluation: SharedEvaluation): SharedEvaluation {
  if (!evaluation.ok) return evaluation
  const baseline = baselineFromReport(evaluation.report)
  const dir = baselineDirFor(evaluation.baselineRoot, evaluation.report.config.mode)
  writeBaseline(dir, baseline)
  // Shown as the report shows paths: relative to the project root.
  const report = {
    ...evaluation.report,
    gate: evaluateGate(
      evaluation.report,
      baseline,
      displayPath({ root: evaluation.projectRoot }, dir),
      evaluation.report.config.tolerance,
    ),
  }
  writeReports(report, evaluation.reportsDir)
  return { ...evaluation, report, terminalSummary: renderTerminalSummary(report), baselineUpdated: true }
}
