export interface QuestionThresholds {
  /** An answer's faithfulness must reach this (config minFaithfulness). */
  minFaithfulness: number
  /** An answer must cover this share of the gold answer's key facts (config minCoverage). */
  minCoverage: number
  /**
   * Whether the judge's verdicts (faithfulness, coverage) may fail a question. False while the judge is
   * advisory (its agreement with human labels is below the threshold): those checks are then left out.
   */
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
export interface CheckedOutcome {
  type: 'single' | 'multi' | 'contradiction' | 'none'
  hit: boolean
  refused: boolean | null
  faithfulness: number | null
  coverage: number | null
}

export interface QuestionCheck {
  name: 'context hit' | 'refuses' | 'answers' | 'faithful' | 'covers gold answer'
  passed: boolean
}

/**
 * The checks a question must pass, one definition for the gate and the Vitest cases. A none question:
 * the system refuses. An answerable one: the context hits; and, once there is a clear answer, it is not
 * a refusal, its faithfulness reaches minFaithfulness (when decidable) and it covers minCoverage of the
 * gold answer (these two only while the judge may block). Checks the run cannot decide (no answer yet,
 * an unclear refusal) are left out.
 */
export function questionChecks(outcome: CheckedOutcome, thresholds: QuestionThresholds): QuestionCheck[] {
  if (outcome.type === 'none') return outcome.refused === null ? [] : [{ name: 'refuses', passed: outcome.refused }]
  const checks: QuestionCheck[] = [{ name: 'context hit', passed: outcome.hit }]
  if (outcome.refused === null) return checks
  checks.push({ name: 'answers', passed: !outcome.refused })
  if (outcome.refused || !thresholds.judgeBlocking) return checks
  if (outcome.faithfulness !== null) checks.push({ name: 'faithful', passed: outcome.faithfulness >= thresholds.minFaithfulness })
  if (outcome.coverage !== null) checks.push({ name: 'covers gold answer', passed: outcome.coverage >= thresholds.minCoverage })
  return checks
}

/** Whether a question passes all its checks; null when it has none the run can decide. */
export function questionPassed(outcome: CheckedOutcome, thresholds: QuestionThresholds): boolean | null {
  const checks = questionChecks(outcome, thresholds)
  return checks.length === 0 ? null : checks.every((check) => check.passed)
}
