import type { ScoredQuestion } from '../contract/metrics/metric.ts'
import { METRICS, type MetricTable } from '../contract/metrics/metric-table.ts'

export interface QuestionThresholds {
  /** An answer's faithfulness must reach this (config minFaithfulness). */
  minFaithfulness: number
  /** An answer must cover this share of the gold answer's key facts (config minCoverage). */
  minCoverage: number
  /** Whether the judge's verdicts may fail a question: false while the judge is advisory. */
  judgeBlocking: boolean
}

/** A report's question thresholds: its config, and whether its judge is calibrated enough to block. */
export function questionThresholds(report: {
  config: Omit<QuestionThresholds, 'judgeBlocking'>
  calibration: { advisory: boolean } | null
}): QuestionThresholds {
  return {
    minFaithfulness: report.config.minFaithfulness,
    minCoverage: report.config.minCoverage,
    judgeBlocking: !(report.calibration?.advisory ?? false),
  }
}

/** What the checks read of a question: a report outcome or a baseline record. */
export type CheckedOutcome = ScoredQuestion & { hit: boolean; refused: boolean | null }

export interface QuestionCheck {
  /** context hit, refuses, answers, or a metric's check (faithful, covers gold answer). */
  name: string
  passed: boolean
}

/**
 * A question's checks, shared by the gate and the Vitest cases. None: it refuses. Answerable: the context hits;
 * with a clear answer, it is no refusal and, while the judge may block, each metric with a known value reaches its
 * threshold. Undecidable checks (no answer yet, an unclear refusal) are left out.
 */
export function questionChecks(outcome: CheckedOutcome, thresholds: QuestionThresholds): QuestionCheck[] {
  if (outcome.type === 'none') return outcome.refused === null ? [] : [{ name: 'refuses', passed: outcome.refused }]
  const checks: QuestionCheck[] = [{ name: 'context hit', passed: outcome.hit }]
  if (outcome.refused === null) return checks
  checks.push({ name: 'answers', passed: !outcome.refused })
  if (outcome.refused || !thresholds.judgeBlocking) return checks
  for (const metric of METRICS as MetricTable) {
    const check = metric.questionCheck
    const value = check === undefined ? null : metric.value(outcome)
    if (check !== undefined && value !== null) checks.push({ name: check.name, passed: value >= thresholds[check.min] })
  }
  return checks
}

/**
 * Whether a question passes all its checks; null when it has none the run can decide. Asked in several trials: whether
 * it passed at least half of those decided (its trials' verdicts, judged when the report was assembled).
 */
export function questionPassed(outcome: CheckedOutcome, thresholds: QuestionThresholds): boolean | null {
  if (outcome.trials?.passRate != null) return outcome.trials.passRate >= 0.5
  const checks = questionChecks(outcome, thresholds)
  return checks.length === 0 ? null : checks.every((check) => check.passed)
}
