import { z } from 'zod'
import { ReportSchema, RunInfoSchema } from '../contract/report-schema.ts'

/** Every wall time of a stage, in ms (the report keeps their p50 and p95; a merge needs them all). */
const StageTimesSchema = z.object({
  retrieve: z.array(z.number()),
  generate: z.array(z.number()),
  judge: z.array(z.number()),
  /** The system's own pipeline stages (`stages[].latencyMs`), by numbered name. */
  pipeline: z.record(z.string(), z.array(z.number())).default({}),
})

/**
 * What one evaluation measured before anything is computed across questions; the report is a function of it
 * (assembleReport), so measurements of disjoint shards merge into the report a single run would have written.
 */
export const MeasurementSchema = z.object({
  tier: ReportSchema.shape.tier,
  config: ReportSchema.shape.config,
  corpus: ReportSchema.shape.corpus,
  inputs: ReportSchema.shape.inputs,
  questions: ReportSchema.shape.questions,
  /** Every question id of the golden set, in its order: a shard measures some of them, the merge puts them back in it. */
  goldenSetIds: z.array(z.string()),
  /** The judge's name; null in the retrieval tier (nothing judged). */
  judge: z.string().nullable(),
  /** Some response came from a scripted server: the calibration must say so. */
  scripted: z.boolean(),
  /** The run's own warnings, in order. */
  warnings: z.array(z.string()),
  /** Warnings about single questions (a truncated answer), in any order: the report sorts them after the run's own. */
  questionWarnings: z.array(z.string()),
  attacks: ReportSchema.shape.attacks,
  run: RunInfoSchema.omit({ latencyMs: true, latencyPercentilesMs: true, stageLatencyMs: true }).extend({
    stageMs: StageTimesSchema,
  }),
})
export type Measurement = z.infer<typeof MeasurementSchema>
