import type { z } from 'zod'
import type { EvalConfig } from '../contract/eval-config-schema.ts'
import type { MeanResampler } from '../statistics/mean-resamples.ts'
import type { QuestionOutcome, Report } from '../contract/report-schema.ts'
import {
  baselineMetricsSchema,
  BaselineQuestionsSchema,
  describeBaselineIssues,
  REACCEPT_BASELINE,
  type Baseline,
  type BaselineQuestion,
  type DamagedBaseline,
} from './baseline-schema.ts'
import type { GateResult, QuestionVerdict, Regression, SystemErrorsVerdict } from '../contract/gate-schema.ts'
import { METRICS, type MetricTable } from '../contract/metrics/metric-table.ts'
import { gatedEntries, summaryValue } from '../contract/metrics/metric.ts'
import { lostAtStage } from './lost-at-stage.ts'
import { correctedVerdict } from './judge-correction.ts'
import { metricVerdict } from './metric-verdict.ts'
import { systemErrorsVerdict } from './system-error-failure.ts'
import { flakyFailure, judgeErrorFailure, leakFailure } from './run-failures.ts'
import { questionPassed, questionThresholds, type QuestionThresholds } from './question-checks.ts'
import { fisherLowerTail } from '../statistics/fisher-exact.ts'
import { acceptedPassed, trialCounts } from './trials.ts'

/** Config fields that change what is measured (concurrency and tolerance do not). */
const MEASURING_FIELDS = [
  'mode',
  'budgetTokens',
  'k',
  'rankDepth',
  'relevantGrade',
  'chunkTokens',
  'chunkOverlap',
  'retrieval',
  'tokenizer',
  'refusalThreshold',
  'answerSentences',
  'minFaithfulness',
  'minCoverage',
  'generatorMaxTokens',
  'judgeMaxTokens',
] as const satisfies readonly (keyof EvalConfig)[]

function questionVerdict(
  outcome: QuestionOutcome,
  accepted: BaselineQuestion | undefined,
  unmeasuredInBaseline: boolean,
  thresholds: QuestionThresholds,
  alpha: number,
): QuestionVerdict {
  const baselinePassed = accepted ? acceptedPassed(accepted, thresholds) : null
  // The system failed on it: nothing was measured, so it is neither a regression nor a known miss (systemErrorsVerdict).
  if (outcome.systemError !== null) return { id: outcome.id, status: 'system-error', baselinePassed, currentPassed: null }
  if (accepted && outcome.trials) return trialVerdict(outcome, accepted, thresholds, alpha)
  const currentPassed = questionPassed(outcome, thresholds)
  let status: QuestionVerdict['status']
  // The accepted run could not measure it either: the baseline has no verdict to hold it to.
  if (!accepted) status = unmeasuredInBaseline ? 'not-gated' : 'new'
  else if (currentPassed === null || baselinePassed === null) status = 'not-gated'
  else if (baselinePassed && !currentPassed) status = 'regressed'
  else if (!baselinePassed && !currentPassed) status = 'known-miss'
  else if (!baselinePassed && currentPassed) status = 'improved'
  else status = 'held'
  return { id: outcome.id, status, baselinePassed, currentPassed }
}

/**
 * A question asked in trials (the baseline's too, or once: 1 of 1 or 0 of 1): it regresses
 * only when its pass rate fell beyond its trials' noise, the one-sided Fisher exact test below alpha, and improves
 * the same way up; otherwise it holds (the baseline passed at least half) or stays a known miss.
 */
function trialVerdict(
  outcome: QuestionOutcome,
  accepted: BaselineQuestion,
  thresholds: QuestionThresholds,
  alpha: number,
): QuestionVerdict {
  const before = accepted.passedTrials ?? trialCounts(accepted, thresholds)
  const now = trialCounts(outcome, thresholds)
  const baselinePassed = acceptedPassed(accepted, thresholds)
  if (before === null || now === null) return { id: outcome.id, status: 'not-gated', baselinePassed, currentPassed: null }
  const status: QuestionVerdict['status'] =
    fisherLowerTail(before.passed, before.of, now.passed, now.of) < alpha
      ? 'regressed'
      : fisherLowerTail(now.passed, now.of, before.passed, before.of) < alpha
        ? 'improved'
        : baselinePassed
          ? 'held'
          : 'known-miss'
  return { id: outcome.id, status, baselinePassed, currentPassed: status === 'held' || status === 'improved' }
}

/** The measuring fields as text, an object's (the retrieval options) one entry per option: `retrieval.k1` -> `1.2`. */
function measuringValues(config: EvalConfig): Map<string, string> {
  const values = new Map<string, string>()
  for (const field of MEASURING_FIELDS) {
    // relevantGrade is absent when not set (reports before it lack it too), which means 1.
    const value = field === 'relevantGrade' ? (config.relevantGrade ?? 1) : config[field]
    if (typeof value === 'object')
      for (const [option, setting] of Object.entries(value)) values.set(`${field}.${option}`, String(setting))
    else values.set(field, String(value))
  }
  return values
}

/** Names what differs between the conditions the baseline was measured under and this run's. */
export function staleness(report: Report, baseline: Baseline): string[] {
  const differences: string[] = []
  const accepted = measuringValues(baseline.summary.config)
  for (const [field, current] of measuringValues(report.config)) {
    if (accepted.get(field) !== current)
      differences.push(`${field}: baseline ${accepted.get(field) ?? 'not set'}, this run ${current}`)
  }
  if (baseline.summary.system !== report.config.system)
    differences.push(`system: baseline ${baseline.summary.system}, this run ${report.config.system}`)
  if (baseline.summary.models.generator !== report.config.generatorModel)
    differences.push(`generator model: baseline ${baseline.summary.models.generator}, this run ${report.config.generatorModel}`)
  if (baseline.summary.models.judge !== report.config.judgeModel)
    differences.push(`judge model: baseline ${baseline.summary.models.judge}, this run ${report.config.judgeModel}`)
  if (baseline.summary.judgePromptsHash !== report.inputs.judgePromptsHash)
    differences.push('judge prompts changed since the baseline')
  if (baseline.summary.goldenSetHash !== report.inputs.goldenSetHash) differences.push('golden set changed since the baseline')
  if (baseline.summary.corpusHash !== report.inputs.corpusHash) differences.push('corpus changed since the baseline')
  const asked = new Set(report.questions.map((q) => q.id))
  const removed = baseline.questions.filter((q) => !asked.has(q.id)).map((q) => q.id)
  if (removed.length > 0)
    differences.push(`in the baseline but no longer in the golden set (removed since): ${removed.join(', ')}`)
  return differences
}

/**
 * What makes a baseline unfit, each naming its file and the fix: metrics or questions not in the baseline format
 * (for a baseline given as data), and a gated metric null in the baseline but computed now (it would go unwatched).
 */
export function baselineProblems(
  report: Report,
  baseline: Baseline,
  baselinePath: string,
  table: MetricTable = METRICS,
): string[] {
  const under = (field: string, issues: readonly z.core.$ZodIssue[]) =>
    issues.map((issue) => ({ ...issue, path: [field, ...issue.path] }))
  const summaryFile = `${baselinePath}/summary.json`
  const problems: string[] = []
  const metrics = baselineMetricsSchema(table).safeParse(baseline.summary.metrics)
  if (!metrics.success) problems.push(...describeBaselineIssues(summaryFile, under('metrics', metrics.error.issues)))
  const questions = BaselineQuestionsSchema.shape.questions.safeParse(baseline.questions)
  if (!questions.success)
    problems.push(...describeBaselineIssues(`${baselinePath}/questions.json`, under('questions', questions.error.issues)))
  for (const metric of gatedEntries(table)) {
    const current = summaryValue(report.summary, metric.path)
    if (current !== null && baseline.summary.metrics[metric.name] === null) {
      problems.push(
        `${summaryFile}: gated metric "${metric.name}" is null, but this run computes it (${current}); ${REACCEPT_BASELINE}`,
      )
    }
  }
  return problems
}

/**
 * The gate (pure), without a baseline never a pass. Policy 'tolerance': a gated metric fails below its baseline by
 * more than the tolerance, and a question the baseline passed fails when it now fails; 'significant' / 'both':
 * metricVerdict decides and lost questions are only reported. An advisory judge's metrics regress into `advisory`
 * and its verdicts leave the question checks. A damaged or unfit baseline fails it. System errors are neither
 * regressions nor known misses: listed apart, out of the metrics, failing above config.maxSystemErrorRate
 * (docs/reliability.md).
 */
export function evaluateGate(
  report: Report,
  baseline: Baseline | DamagedBaseline | null,
  baselinePath: string,
  tolerance: number,
  resampler?: MeanResampler,
  table: MetricTable = METRICS,
): GateResult {
  const advisoryReason = report.calibration?.advisory ? report.calibration.reason : null
  // A system error is never a regression: the rate's verdict is its own field (systemErrors), named apart.
  const failures = [judgeErrorFailure(report), flakyFailure(report), leakFailure(report)].filter((failure) => failure !== null)
  const noBaselineErrors = systemErrorsVerdict(report)
  const withErrors = (verdict: SystemErrorsVerdict | null) => (verdict === null ? {} : { systemErrors: verdict })
  const policy = { policy: report.config.gatePolicy, alpha: report.config.alpha }
  const notCompared = {
    tolerance,
    ...policy,
    passed: false,
    regressions: failures,
    advisory: [],
    advisoryReason,
    metrics: [],
    questions: [],
    stale: [],
  }
  if (!baseline) return { baseline: null, ...notCompared, problems: [], ...withErrors(noBaselineErrors) }
  if ('damaged' in baseline)
    return { baseline: baselinePath, ...notCompared, problems: baseline.damaged, ...withErrors(noBaselineErrors) }
  const thresholds = questionThresholds(report)
  const gated = gatedEntries(table)
  const metrics = gated.map((metric) =>
    correctedVerdict(metricVerdict(metric, report, baseline, tolerance, resampler), report, tolerance),
  )
  const accepted = new Map(baseline.questions.map((q) => [q.id, q]))
  const unmeasuredInBaseline = new Set(baseline.systemErrors ?? [])
  const questions = report.questions.map((outcome) =>
    questionVerdict(outcome, accepted.get(outcome.id), unmeasuredInBaseline.has(outcome.id), thresholds, report.config.alpha),
  )
  const verdictOf = new Map(questions.map((q) => [q.id, q.baselinePassed]))
  const systemErrors = systemErrorsVerdict(report, (id) => verdictOf.get(id) ?? null)
  const regressions: Regression[] = []
  const advisory: Regression[] = []
  for (const [index, { name, status, baseline: accepted, current, delta }] of metrics.entries()) {
    if (status !== 'regressed' || accepted === null || current === null || delta === null) continue
    // A metric judged on its corrected estimate (judgeCorrection 'ppi') blocks even while the judge is advisory.
    const blocking = !(advisoryReason !== null && gated[index]!.judgeDerived && !metrics[index]!.judgeCorrection)
    const lostAt = lostAtStage(gated[index]!, report, baseline.summary, tolerance, table)
    ;(blocking ? regressions : advisory).push({ name, baseline: accepted, current, delta, ...(lostAt ? { lostAt } : {}) })
  }
  // Under 'significant' and 'both' a lost question is reported, not failed: the metrics' paired tests decide.
  for (const verdict of report.config.gatePolicy === 'tolerance' ? questions : []) {
    if (verdict.status === 'regressed') regressions.push({ name: `question ${verdict.id}`, baseline: 1, current: 0, delta: -1 })
  }
  regressions.push(...failures)
  const problems = baselineProblems(report, baseline, baselinePath, table)
  return {
    baseline: baselinePath,
    tolerance,
    ...policy,
    passed: regressions.length === 0 && problems.length === 0 && !(systemErrors?.exceeded ?? false),
    regressions,
    advisory,
    advisoryReason,
    metrics,
    questions,
    stale: staleness(report, baseline),
    problems,
    ...withErrors(systemErrors),
  }
}
