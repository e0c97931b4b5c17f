import { acceptBaseline } from '../gate/baseline-files.ts'
import { baselineDirFor } from '../gate/baseline-location.ts'
import { evaluateGate } from '../gate/gate.ts'
import { latencyCostGate } from '../gate/latency-cost-gate.ts'
import { displayPath } from '../config/project-config.ts'
import { renderTerminalSummary } from '../report/render-terminal.ts'
import { writeReports } from '../report/write-report.ts'
import { parallelMeanResampler } from '../threads/index.ts'
import type { SharedRun } from './shared-run.ts'
import { leakingQuestions } from '../gate/run-failures.ts'

/**
 * Under `vitest -u` the run becomes the baseline (the only place it is written), unless it has too many system
 * errors (gate/accept-decision.ts); the report is then re-gated against it and rewritten. A run with permission
 * leaks is refused too, but measured: its cases still run, each leak failing its question's case.
 */
export function acceptAsBaseline(evaluation: SharedRun): SharedRun {
  if (!evaluation.ok) return evaluation
  const dir = baselineDirFor(evaluation.baselineRoot, evaluation.report.config.mode)
  // Shown as the report shows paths: relative to the project root.
  const shown = displayPath({ root: evaluation.projectRoot }, dir)
  const decision = acceptBaseline(evaluation.report, dir, shown)
  if (!decision.accepted)
    return leakingQuestions(evaluation.report).length > 0
      ? { ...evaluation, baselineRefusal: decision.refusal }
      : { ok: false, error: decision.refusal }
  const gate = evaluateGate(
    evaluation.report,
    decision.baseline,
    shown,
    evaluation.report.config.tolerance,
    parallelMeanResampler,
  )
  const { config, run } = evaluation.report
  const report = {
    ...evaluation.report,
    gate,
    run: { ...run, latencyCostGate: latencyCostGate(config, run, decision.baseline, shown) },
  }
  writeReports(report, evaluation.reportsDir)
  return {
    ...evaluation,
    report,
    terminalSummary: renderTerminalSummary(report),
    baselineUpdated: true,
    ...(decision.warning === null ? {} : { baselineWarning: decision.warning }),
  }
}
