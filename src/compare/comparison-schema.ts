import { z } from 'zod'
import { QUESTION_TYPES } from '../contract/question-types.ts'
import { PairedComparisonSchema } from '../statistics/paired-comparison.ts'

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

/**
 * reports/compare.json: run B against run A on the same golden set, per metric and per type (`rag-eval
 * compare`, docs/statistics.md). Deterministic: the same two runs always give the same file.
 */
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
   * Present only when the system failed on some question in A or B: each side's errored questions with
   * their errors, and how many questions (errored on either side) were left out of every paired test and
   * of the flips: an error is not a miss.
   */
  systemErrors: z
    .object({
      a: z.array(z.object({ id: z.string(), error: z.string() })),
      b: z.array(z.object({ id: z.string(), error: z.string() })),
      leftOut: z.number().int(),
    })
    .optional(),
})
export type CompareResult = z.infer<typeof CompareResultSchema>
export type MetricComparison = CompareResult['metrics'][number]
