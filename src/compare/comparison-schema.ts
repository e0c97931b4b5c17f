import { ReportTrialsSchema } from '../contract/trials-schema.ts'
import { z } from 'zod'
import { QUESTION_TYPES } from '../contract/question-types.ts'
import { PairedComparisonSchema } from '../statistics/paired-comparison.ts'
import { PercentileIntervalSchema } from '../contract/report-schema.ts'

/** One side of a comparison: what was given and what it measured. */
export const CompareSideSchema = z.object({
  /** The config file or report file as given on the command line. */
  source: z.string(),
  kind: z.enum(['config', 'report']),
  /** Environment overrides applied to this side (--a-env, --b-env). */
  env: z.record(z.string(), z.string()),
  /** The report of a side evaluated from a config (written beside compare.json); null for a report given. */
  report: z.string().nullable(),
  system: z.string(),
  tier: z.enum(['retrieval', 'full']),
  goldenSet: z.string(),
  goldenSetHash: z.string(),
})
export type CompareSide = z.infer<typeof CompareSideSchema>

/** One side's evidence for a flipped question. */
const FlipSideSchema = z.object({
  /** 1-based rank of each answer document (its first chunk) in the ranking, as answerDocIds; null: not ranked. */
  answerRanks: z.array(z.number().int().nullable()),
  contextDocIds: z.array(z.string()),
  refused: z.boolean().nullable(),
  answer: z.string().nullable(),
})

/** A question that changed a binary outcome between A and B, with the evidence on each side. */
export const FlipSchema = z.object({
  id: z.string(),
  type: z.enum(QUESTION_TYPES),
  question: z.string(),
  answerDocIds: z.array(z.string()),
  a: FlipSideSchema,
  b: FlipSideSchema,
})
export type Flip = z.infer<typeof FlipSchema>

/** reports/compare.json: run B against run A per metric and type (docs/comparing.md); the same runs, the same file. */
export const CompareResultSchema = z.object({
  schemaVersion: z.literal(1),
  a: CompareSideSchema,
  b: CompareSideSchema,
  /** Questions of the golden set (both sides have exactly these ids). */
  questions: z.number().int(),
  alpha: z.number(),
  resamples: z.number().int(),
  /** The knobs that differ between A and B: `budgetTokens: A 600, B 450`. */
  configDifferences: z.array(z.string()),
  warnings: z.array(z.string()),
  metrics: z.array(PairedComparisonSchema.extend({ name: z.string(), label: z.string(), scope: z.string() })),
  /** Per binary metric (recall, refusal rates): the questions that went each way. */
  flips: z.array(z.object({ metric: z.string(), label: z.string(), worse: z.array(FlipSchema), better: z.array(FlipSchema) })),
  /**
   * p95 latency (the whole call, each stage both timed) and USD per question, B (`after`) against A (`before`) with
   * their 95% intervals; `risen`: B's interval lies wholly above A x (1 + tolerance), A's latencyTolerance and
   * costTolerance, else 0.2. Absent in older files.
   */
  latencyCost: z
    .array(
      z.object({
        name: z.string(),
        before: z.number(),
        beforeInterval: PercentileIntervalSchema.nullable(),
        after: z.number(),
        afterInterval: PercentileIntervalSchema.nullable(),
        tolerance: z.number(),
        risen: z.boolean(),
      }),
    )
    .default([]),
  /** Only when A or B has system errors: each side's, and how many questions the paired tests and flips left out. */
  systemErrors: z
    .object({
      a: z.array(z.object({ id: z.string(), error: z.string() })),
      b: z.array(z.object({ id: z.string(), error: z.string() })),
      leftOut: z.number().int(),
    })
    .optional(),
  /** Only when A or B ran trials: each side's flaky questions. */
  flaky: z.object({ a: ReportTrialsSchema.shape.flaky, b: ReportTrialsSchema.shape.flaky }).optional(),
})
export type CompareResult = z.infer<typeof CompareResultSchema>
