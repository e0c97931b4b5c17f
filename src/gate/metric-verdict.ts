import type { EvalConfig } from '../contract/eval-config-schema.ts'
import { pairedComparison } from '../statistics/paired-comparison.ts'
import type { Report } from '../contract/report-schema.ts'
import { STATISTICS_SEED } from '../statistics/defaults.ts'
import type { MeanResampler } from '../statistics/mean-resamples.ts'
import type { Baseline } from './baseline-schema.ts'
import type { Comparison, MetricVerdict } from '../contract/gate-schema.ts'
import { summaryValue, type MetricEntry } from '../contract/metrics/metric.ts'
import { compareMetric } from './regression.ts'

/** What the gate fails a metric on (config gatePolicy, EVAL_GATE_POLICY). */
export type GatePolicy = EvalConfig['gatePolicy']

/**
 * 'tolerance' keeps the tolerance's status; 'significant' follows a significant change of any size; 'both' needs
 * both. Without a test (no pairs) the tolerance decides.
 */
export function policyStatus(
  byTolerance: Comparison['status'],
  significance: MetricVerdict['significance'],
  policy: GatePolicy,
): Comparison['status'] {
  if (byTolerance === 'not-comparable' || policy === 'tolerance' || significance === null) return byTolerance
  const significant = significance === 'drop' ? 'regressed' : significance === 'rise' ? 'improved' : 'held'
  if (policy === 'significant') return significant
  return byTolerance === significant ? byTolerance : 'held'
}

/**
 * A gated metric against the baseline (pure): the tolerance comparison, the paired test over questions with a
 * value in both runs (exact McNemar for binary, sign-flip permutation for continuous), the paired bootstrap
 * interval, and the policy's status. `resampler`: where the replicates are computed (bit-identical either way).
 * Questions with a system error in either run are left out of both means.
 */
export function metricVerdict(
  metric: MetricEntry,
  report: Report,
  baseline: Baseline,
  tolerance: number,
  resampler?: MeanResampler,
): MetricVerdict {
  const paired = metric.test === null ? null : { ...metric, test: metric.test }
  const { gatePolicy: policy, alpha, bootstrapResamples: resamples } = report.config
  // A question the system failed on measured nothing: it pairs with nothing (the baseline leaves its own out).
  const measured = report.questions.filter((q) => q.systemError === null)
  const test = paired
    ? pairedComparison(baseline.questions, measured, paired, {
        resamples,
        seed: STATISTICS_SEED,
        alpha,
        ...(resampler === undefined ? {} : { resampler }),
      })
    : null
  // With unmeasured questions on either side, the summaries count them as misses: the tolerance then
  // compares the means over the questions both runs measured (the paired test's), so an error moves no metric.
  const unmeasured = measured.length < report.questions.length || (baseline.systemErrors?.length ?? 0) > 0
  // No question measured in both runs (every one errored): nothing to compare; the errors fail the gate apart.
  const byTolerance =
    unmeasured && test !== null && test.pairs > 0
      ? compareMetric(test.b, test.a, tolerance)
      : unmeasured && measured.length === 0
        ? {
            ...compareMetric(null, baseline.summary.metrics[metric.name] ?? null, tolerance),
            reason: 'no question measured: the system failed on every one',
          }
        : compareMetric(summaryValue(report.summary, metric.path), baseline.summary.metrics[metric.name] ?? null, tolerance)
  const significance = test?.verdict ? ({ worse: 'drop', better: 'rise', 'no-difference': 'none' } as const)[test.verdict] : null
  return {
    name: metric.name,
    label: metric.label,
    ...byTolerance,
    status: policyStatus(byTolerance.status, significance, policy),
    test: test?.test ?? null,
    pairs: test?.pairs ?? 0,
    deltaInterval: test?.deltaInterval ?? null,
    pValue: test?.pValue ?? null,
    significance,
    testReason: test === null ? `no per-question values for ${metric.name}` : test.reason,
  }
}
