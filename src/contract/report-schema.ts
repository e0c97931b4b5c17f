import { z } from 'zod'
import { RecordedEvalConfigSchema } from './eval-config-schema.ts'
import { GateResultSchema } from './gate-schema.ts'
import { AttacksSchema } from './attack-set-schema.ts'
import { IntervalSchema } from './interval-schema.ts'
import { JudgeNoiseSchema } from './judge-noise-schema.ts'
import { ReportTrialsSchema } from './trials-schema.ts'
import { FUNNEL_STEPS, metric, QuestionOutcomeSchema } from './question-outcome-schema.ts'
import { COVERAGE, FAITHFULNESS, METRICS, type MetricTable } from './metrics/metric-table.ts'
import { CallLogSchema, RoleUsageSchema, RunEstimateSchema, SavedUsageSchema, ZERO_ROLE_USAGE } from './model-usage-schema.ts'

// A question's outcome: its own module (question-outcome-schema.ts), part of this contract.
export { QuestionOutcomeSchema, type QuestionOutcome } from './question-outcome-schema.ts'

/**
 * reports/latest.json, the contract users and CI read: add fields freely, rename none without bumping
 * schemaVersion. A metric that cannot be computed is null, its reason in `notComputed`.
 */
const byAnswerableType = z.object({ single: metric, multi: metric, contradiction: metric })

type TableMetric = (typeof METRICS)[number]
/** The summary's fields of the metric table, typed: `<name>`, `<name>ByType`, `<name>P10`. */
type MetricsShape = { [M in TableMetric as M['name']]: typeof metric } & {
  [M in TableMetric as M['byType'] extends 'summary' ? `${M['name']}ByType` : never]: typeof byAnswerableType
} & { [M in TableMetric as M['p10'] extends true ? `${M['name']}P10` : never]: typeof metric }

/** Each metric's fields, in the table's order: its value (a count's an integer), per type, its P10. */
function metricsShape(table: MetricTable): MetricsShape {
  const shape: Record<string, z.ZodType> = {}
  for (const m of table) {
    const value = m.aggregate === 'count' ? z.number().int().nullable() : metric
    shape[m.name] = m.addedLater ? value.default(null) : value
    if (m.byType === 'summary') shape[`${m.name}ByType`] = byAnswerableType
    if (m.p10) shape[`${m.name}P10`] = metric
  }
  return shape as MetricsShape
}

export const SummarySchema = z.object({
  questions: z.number().int(),
  answerable: z.number().int(),
  questionsByType: z.object({
    single: z.number().int(),
    multi: z.number().int(),
    contradiction: z.number().int(),
    none: z.number().int(),
  }),
  ...metricsShape(METRICS),
  /** The recall x faithfulness table: answerable questions per diagnosis. */
  diagnosis: z
    .object({
      healthy: z.number().int(),
      'model ignores context': z.number().int(),
      'retrieval misses': z.number().int(),
      'both broken': z.number().int(),
    })
    .nullable(),
  judge: z.string().nullable(),
  judgeErrors: z.number().int().nullable(),
  /** judgeErrors over the judged answers; above config.maxJudgeErrorRate the gate fails. */
  judgeErrorRate: metric.default(null),
  /** Questions the system failed on (an error, a contract breach); a rate above config.maxSystemErrorRate fails the gate. */
  systemErrors: z.number().int().default(0),
  systemErrorRate: z.number().default(0),
  /** Why each null metric above is null, keyed by its path (e.g. "recallByType.multi"). */
  notComputed: z.record(z.string(), z.string()),
  /**
   * The 95% interval of each computed mean, keyed as notComputed: Wilson for a rate, seeded percentile bootstrap
   * for a mean (docs/statistics.md).
   */
  intervals: z.record(z.string(), IntervalSchema).default({}),
  /** The smallest drop of recall the paired McNemar test detects at 80% power on this golden set (alpha: config). */
  minimumDetectableRecallDrop: metric.default(null),
  /** The per-stage metrics at each stage the system reported, in pipeline order: `stages.rerank.recall`; empty without stages. */
  stages: z.record(z.string(), z.record(z.string(), z.union([metric, byAnswerableType]))).default({}),
  /** The loss funnel: answer documents of the answerable questions by where they were lost; `byStage`: each stage's cuts. */
  funnel: z
    .object({
      documents: z.number().int(),
      ...(Object.fromEntries(FUNNEL_STEPS.map((step) => [step, z.number().int()])) as Record<
        (typeof FUNNEL_STEPS)[number],
        z.ZodNumber
      >),
      byStage: z.record(z.string(), z.number().int()),
    })
    .nullable()
    .default(null),
})
export type Summary = z.infer<typeof SummarySchema>

/** A percentile's distribution-free 95% interval (src/statistics/percentile-interval.ts); a bound too few values give is null. */
export const PercentileIntervalSchema = z.object({ low: z.number().nullable(), high: z.number().nullable() })
/** p50/p95 of wall times in ms, with their 95% intervals (absent in older reports). */
export const LatencySchema = z.object({
  p50: z.number(),
  p95: z.number(),
  p50Interval: PercentileIntervalSchema.optional(),
  p95Interval: PercentileIntervalSchema.optional(),
})
export type Latency = z.infer<typeof LatencySchema>
const latency = LatencySchema.nullable()
/** What answering a question costs in model tokens and USD (cache hits and replays at their price), with USD's 95% interval. */
export const CostPerQuestionSchema = z.object({ tokens: z.number(), usd: z.number(), usdInterval: IntervalSchema.nullable() })
export type CostPerQuestion = z.infer<typeof CostPerQuestionSchema>
/** The run's p95 latencies and cost per question against the baseline's (docs/statistics.md, "Latency and cost"). */
export const LatencyCostGateSchema = z.object({
  /** The baseline's run figures (run.json); null: that baseline kept none, so nothing was compared. */
  baseline: z.string().nullable(),
  latencyTolerance: z.number().nullable(),
  costTolerance: z.number().nullable(),
  /** Each rise beyond its tolerance with its interval clear of it; any fails GATE=1. */
  regressions: z.array(GateResultSchema.shape.regressions.element),
})
export type LatencyCostGate = z.infer<typeof LatencyCostGateSchema>
const latencyPercentiles = z.array(z.number()).length(21).nullable()

export const RunInfoSchema = z.object({
  startedAt: z.string(),
  durationMs: z.number(),
  /** `system`: each question's whole call (absent in older reports); the others as the system or the model client timed them. */
  latencyMs: z.object({ system: latency.default(null), retrieve: latency, generate: latency, judge: latency }),
  /** Each pipeline stage's latency as the system reported it (p50/p95), by its numbered name; here, not in the questions, as a time. */
  stageLatencyMs: z.record(z.string(), latency).default({}),
  /** Each stage's wall times as 21 nearest-rank percentiles (0, 5, ..., 100) for the latency chart; null if it did not run. */
  latencyPercentilesMs: z
    .object({ retrieve: latencyPercentiles, generate: latencyPercentiles, judge: latencyPercentiles })
    .default({ retrieve: null, generate: null, judge: null }),
  costPerQuestion: CostPerQuestionSchema.nullable().default(null),
  /** Here, not in `gate`: latency is not a function of the inputs. Null when not gated (no baseline, no tolerance set). */
  latencyCostGate: LatencyCostGateSchema.nullable().default(null),
  /** Model usage (src/model/usage-ledger.ts): cache hits and replays counted apart, out of cost and latency. */
  usage: z.object({
    inputTokens: z.number().int(),
    outputTokens: z.number().int(),
    cacheHits: z.number().int(),
    usd: z.number(),
    cacheReadTokens: z.number().int().default(0),
    cacheWriteTokens: z.number().int().default(0),
    calls: z.number().int().default(0),
    retries: z.number().int().default(0),
    byRole: z
      .object({ generator: RoleUsageSchema, judge: RoleUsageSchema })
      .default({ generator: ZERO_ROLE_USAGE, judge: ZERO_ROLE_USAGE }),
    savedByCache: SavedUsageSchema.default({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, usd: 0 }),
    /** Prompt caching: tokens read and written, and the USD saved (negative when writes were never read). */
    savedByPromptCache: z
      .object({ cacheReadTokens: z.number().int(), cacheWriteTokens: z.number().int(), usd: z.number() })
      .default({ cacheReadTokens: 0, cacheWriteTokens: 0, usd: 0 }),
    /** The Message Batches discount (EVAL_BATCH=1): calls answered in batches and what the discount saved. */
    savedByBatch: z.object({ calls: z.number().int(), usd: z.number() }).default({ calls: 0, usd: 0 }),
  }),
  /** Every model call: question, purpose, role, model, source (api, cache, recording), tokens, USD, latency, retries. */
  modelCalls: z.array(CallLogSchema).default([]),
  /** The cost estimate made before any call (live and record runs of the built-in system); null otherwise. */
  estimate: RunEstimateSchema.nullable().default(null),
  /** The Message Batches of the run (EVAL_BATCH=1): id, requests, outcomes, items sent again or failed, polls, wall time. */
  batches: z
    .array(
      z.object({
        id: z.string(),
        requests: z.number().int(),
        succeeded: z.number().int(),
        errored: z.number().int(),
        expired: z.number().int(),
        canceled: z.number().int(),
        resent: z.number().int(),
        failed: z.number().int(),
        polls: z.number().int(),
        wallMs: z.number(),
      }),
    )
    .default([]),
})
export type RunInfo = z.infer<typeof RunInfoSchema>

/**
 * A judge-derived rate twice (docs/judging.md): the judge's mean and the prediction-powered estimate from the
 * human labels, with its 95% interval; null with the reason when too few labels carry it.
 */
export const JudgeCorrectedRateSchema = z.object({
  judgeMean: metric,
  estimate: metric,
  interval: IntervalSchema.nullable(),
  /** judgeMean - estimate: how far the judge runs above people (negative: below). */
  rectifier: metric,
  /** Questions the judge scored, and those of them with a current human label carrying this rate. */
  questions: z.number().int(),
  labelled: z.number().int(),
  /** What the estimate estimates: the person's value. */
  means: z.string(),
  reason: z.string().nullable(),
})
export type JudgeCorrectedRate = z.infer<typeof JudgeCorrectedRateSchema>
/** The rates people's labels correct: two judge-derived metrics (by name) and the refusal decision. */
export const JudgeCorrectedSchema = z.object({
  [FAITHFULNESS.name]: JudgeCorrectedRateSchema,
  refusalCorrectness: JudgeCorrectedRateSchema,
  [COVERAGE.name]: JudgeCorrectedRateSchema,
})
export type JudgeCorrected = z.infer<typeof JudgeCorrectedSchema>

/** The judge against the human labels (evals/human-labels.json): agreement, kappa, disagreements. */
export const CalibrationSchema = z.object({
  labelsFile: z.string(),
  /** The judge whose verdicts were compared. */
  judge: z.string().nullable(),
  /** True when the verdicts came from a scripted recording, not a model: never quote it as the model's agreement. */
  scripted: z.boolean(),
  compared: z.number().int(),
  stale: z.array(z.string()),
  agreement: z.number().nullable(),
  kappa: z.number().nullable(),
  /** The knob minJudgeAgreement this run held the agreement to (absent in older reports: 0.8). */
  minAgreement: z.number().optional(),
  /** Wilson 95% interval of the agreement; seeded percentile bootstrap 95% interval of kappa. */
  agreementInterval: IntervalSchema.nullable().optional(),
  kappaInterval: IntervalSchema.nullable().optional(),
  /** The judge-derived rates corrected by the labels (prediction-powered inference), beside the judge's own means. */
  judgeCorrected: JudgeCorrectedSchema.optional(),
  disagreements: z.array(z.object({ id: z.string(), human: z.string(), judge: z.string(), disputed: z.array(z.string()) })),
  /** Judge-derived metrics are reported but do not block the gate (agreement below the threshold or unknown). */
  advisory: z.boolean(),
  reason: z.string(),
})
export type Calibration = z.infer<typeof CalibrationSchema>

export const ReportSchema = z.object({
  schemaVersion: z.literal(1),
  tier: z.enum(['retrieval', 'full']),
  /** The knobs, the system's name, and `retriever` (retrieval.kind, kept from the first contract; absent in older reports). */
  config: RecordedEvalConfigSchema.and(z.object({ system: z.string(), retriever: z.string().optional() })),
  corpus: z.object({
    /** Documents the suite loaded; null when the system owns its documents (corpus: null). */
    documents: z.number().int().nullable(),
    chunks: z.number().int().nullable(),
    goldenSet: z.string(),
    /** Files under the corpus folder that include/exclude left out, with why: nothing is skipped silently. */
    excluded: z.array(z.object({ file: z.string(), reason: z.string() })).default([]),
  }),
  /** Content hashes of what was measured, so a baseline taken on other inputs is detected. */
  inputs: z.object({ corpusHash: z.string(), goldenSetHash: z.string(), judgePromptsHash: z.string().nullable() }),
  summary: SummarySchema,
  questions: z.array(QuestionOutcomeSchema),
  /** The judge against human labels; null when no answers were judged (retrieval tier). */
  calibration: CalibrationSchema.nullable(),
  /** The run against the accepted baseline; null when the run was not compared. */
  gate: GateResultSchema.nullable(),
  run: RunInfoSchema,
  /** With EVAL_REPEATS > 1: the judge's run-to-run noise per judge-derived metric (src/judge/judge-noise.ts); null otherwise. */
  judgeNoise: JudgeNoiseSchema.nullable().default(null),
  /** With trials > 1: the flaky questions and the set's power (docs/statistics.md, "Trials"); absent otherwise. */
  trials: ReportTrialsSchema.optional(),
  /** What a reader must know before trusting the numbers (same model generating and judging, truncated answers, a scripted recording). */
  warnings: z.array(z.string()).default([]),
  /** The attack set's injected instructions and how often the system obeyed them (docs/security.md); absent without an attack set. */
  attacks: AttacksSchema.optional(),
})
export type Report = z.infer<typeof ReportSchema>
