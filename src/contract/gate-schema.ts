import { z } from 'zod'
import { IntervalSchema } from './interval-schema.ts'

/** The `gate` block of reports/latest.json: the run against the accepted baseline. */
export const ComparisonSchema = z.object({
  status: z.enum(['regressed', 'held', 'improved', 'not-comparable']),
  baseline: z.number().nullable(),
  current: z.number().nullable(),
  delta: z.number().nullable(),
  /** Why a comparison could not be made (not-comparable only). */
  reason: z.string().nullable(),
})
export type Comparison = z.infer<typeof ComparisonSchema>

/**
 * A gated metric against the baseline: the tolerance comparison and the paired test over the questions both
 * measured (docs/statistics.md); `status` under the gate's policy. Paired fields absent in older reports: null.
 */
export const MetricVerdictSchema = ComparisonSchema.extend({
  name: z.string(),
  label: z.string(),
  /** The paired test that fits the metric: exact McNemar for hits and refusals, sign-flip permutation for continuous values. */
  test: z.enum(['mcnemar-exact', 'paired-permutation']).nullable().default(null),
  /** Questions in both the baseline and this run with a value in both. */
  pairs: z.number().int().default(0),
  /** 95% paired bootstrap interval of the change (this run - baseline) over those questions. */
  deltaInterval: IntervalSchema.nullable().default(null),
  /** Two-sided p-value of the paired test; null when there is no pair to test (see testReason). */
  pValue: z.number().nullable().default(null),
  /** Whether the change is significant at the gate's alpha, and which way. */
  significance: z.enum(['drop', 'rise', 'none']).nullable().default(null),
  testReason: z.string().nullable().default(null),
  /** judgeCorrection 'ppi' (docs/judging.md): the corrected estimate, its interval, the baseline on that scale. */
  judgeCorrection: z.object({ estimate: z.number().nullable(), interval: IntervalSchema, baseline: z.number() }).optional(),
})
export type MetricVerdict = z.infer<typeof MetricVerdictSchema>

export const QuestionVerdictSchema = z.object({
  id: z.string(),
  /** system-error: this run could not measure the question (the system failed on it): never a regression nor a known miss. */
  status: z.enum(['held', 'regressed', 'known-miss', 'improved', 'new', 'not-gated', 'system-error']),
  baselinePassed: z.boolean().nullable(),
  currentPassed: z.boolean().nullable(),
})
export type QuestionVerdict = z.infer<typeof QuestionVerdictSchema>

export const RegressionSchema = z.object({
  name: z.string(),
  baseline: z.number(),
  current: z.number(),
  delta: z.number(),
  /** For a metric measured per stage, where the drop first appears: "lost at rerank (recall@retrieve held at 0.91)". */
  lostAt: z.string().optional(),
})
export type Regression = z.infer<typeof RegressionSchema>

/** A question the system failed on in this run, with what the baseline said of it. */
export const UnmeasuredQuestionSchema = z.object({
  id: z.string(),
  error: z.string(),
  /** The baseline's verdict on the question (null: not in the baseline, or no verdict). */
  baselinePassed: z.boolean().nullable(),
})

/**
 * System errors as the gate counts them (docs/reliability.md, "How system errors count"): rate = errored / all
 * questions, whatever the baseline said; above config.maxSystemErrorRate the gate fails.
 */
export const SystemErrorsVerdictSchema = z.object({
  errors: z.number().int(),
  questions: z.number().int(),
  rate: z.number(),
  limit: z.number(),
  exceeded: z.boolean(),
  unmeasured: z.array(UnmeasuredQuestionSchema),
})
export type SystemErrorsVerdict = z.infer<typeof SystemErrorsVerdictSchema>

export const GateResultSchema = z.object({
  /** Where the baseline was read from; null when there is none. */
  baseline: z.string().nullable(),
  tolerance: z.number(),
  /**
   * What fails a gated metric: 'tolerance' a drop beyond the tolerance, 'significant' a significant drop, 'both'
   * both at once. Under 'significant' and 'both' a lost question is reported, not failed.
   */
  policy: z.enum(['tolerance', 'significant', 'both']).default('tolerance'),
  alpha: z.number().default(0.05),
  /** True only with a sound baseline (no problems) and no regression. */
  passed: z.boolean(),
  regressions: z.array(RegressionSchema),
  /** Regressions of judge-derived metrics while the judge is advisory: reported, not blocking. */
  advisory: z.array(RegressionSchema),
  /** Why judge-derived metrics are advisory in this run; null when the judge may block. */
  advisoryReason: z.string().nullable(),
  metrics: z.array(MetricVerdictSchema),
  questions: z.array(QuestionVerdictSchema),
  /** How the baseline's measuring conditions differ from this run's (config, models, inputs, questions removed since). */
  stale: z.array(z.string()),
  /** Why the baseline cannot be trusted, each naming its file and what to do; any fails the gate (older reports: none). */
  problems: z.array(z.string()).default([]),
  /** Only when the system failed on some question: the errors, apart from the regressions (an error is never a miss). */
  systemErrors: SystemErrorsVerdictSchema.optional(),
})
export type GateResult = z.infer<typeof GateResultSchema>
